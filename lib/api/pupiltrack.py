"""Pupil detection with pupiltrack from Python (numpy arrays in, dicts out).

    import pupiltrack
    result = pupiltrack.detect(frame, algorithm="starburst")
    # {'status': 'ok', 'eye': '', 'cx': 218.29, 'cy': 134.37, 'r': 17.71, ...}

    with pupiltrack.Detector("tl", backend="omp", ellipse=True) as det:
        for frame in frames:
            print(det.detect(frame))

A frame is a 2-D numpy array of uint8 or uint16 (height x width, any row
stride); a 3-D array is a stack of frames, detected in one batch. uint8
frames are read where they lie, so a recording opened with
numpy.load("eye.npy", mmap_mode="r") is never copied whole. A result is
a dict with the columns of `pupiltrack track`: status ('ok', 'notfound',
'error'), eye ('', 'L', 'R'), cx, cy, r, a, b, theta (None when absent),
confidence, ms and message. With binocular=True a frame gives a list of two
dicts, left eye first.

The module calls libpupiltrack.so through ctypes (pupiltrack(3)); it is found
through $PUPILTRACK_LIBRARY, then where `make install` put it, then on the
system's library path. Detectors are independent; one Detector is used by one
thread at a time.
"""

import ctypes
import ctypes.util
import os

import numpy as np

__all__ = ["Detector", "PupiltrackError", "detect", "version"]

# Replaced by `make install` with the folder the library went to.
_INSTALLED_LIBDIR = "@LIBDIR@"

_STATUS = ("ok", "notfound", "error")
_API_STATUS = ("ok", "io", "format", "param", "nomem", "unavailable", "internal")
_API_VERSION = 1


class PupiltrackError(Exception):
    """A call into libpupiltrack failed; .status names why ('param',
    'unavailable', ...)."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class _Pupil(ctypes.Structure):
    # pt_pupil in pupiltrack.h
    _fields_ = [
        ("status", ctypes.c_int),
        ("eye", ctypes.c_char),
        ("has_circle", ctypes.c_int),
        ("has_ellipse", ctypes.c_int),
        ("cx", ctypes.c_double),
        ("cy", ctypes.c_double),
        ("radius", ctypes.c_double),
        ("ellipse_cx", ctypes.c_double),
        ("ellipse_cy", ctypes.c_double),
        ("ellipse_a", ctypes.c_double),
        ("ellipse_b", ctypes.c_double),
        ("ellipse_theta", ctypes.c_double),
        ("confidence", ctypes.c_double),
        ("ms", ctypes.c_double),
        ("message", ctypes.c_char * 256),
    ]


def _candidates():
    env = os.environ.get("PUPILTRACK_LIBRARY")
    if env:
        yield env
    if os.path.isabs(_INSTALLED_LIBDIR):
        yield os.path.join(_INSTALLED_LIBDIR, "libpupiltrack.so.0")
    found = ctypes.util.find_library("pupiltrack")
    if found:
        yield found
    yield "libpupiltrack.so.0"


def _load():
    tried = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(str(e))
            continue
        _declare(lib)
        if lib.pt_api_version() != _API_VERSION:
            raise ImportError("%s has interface version %d, this module needs %d"
                              % (path, lib.pt_api_version(), _API_VERSION))
        return lib
    raise ImportError("cannot load libpupiltrack (set PUPILTRACK_LIBRARY): "
                      + "; ".join(tried))


def _declare(lib):
    c = ctypes
    lib.pt_version.restype = c.c_char_p
    lib.pt_version.argtypes = []
    lib.pt_api_version.restype = c.c_int
    lib.pt_api_version.argtypes = []
    lib.pt_detector_open.restype = c.c_int
    lib.pt_detector_open.argtypes = [c.POINTER(c.c_void_p), c.c_char_p, c.c_char_p,
                                     c.POINTER(c.c_char_p), c.c_int, c.c_char_p, c.c_size_t]
    lib.pt_detector_detect_batch.restype = c.c_int
    lib.pt_detector_detect_batch.argtypes = [c.c_void_p, c.POINTER(c.c_void_p), c.c_int,
                                             c.c_int, c.c_int, c.c_size_t, c.c_int]
    lib.pt_detector_eyes.restype = c.c_int
    lib.pt_detector_eyes.argtypes = [c.c_void_p]
    lib.pt_detector_result.restype = c.c_int
    lib.pt_detector_result.argtypes = [c.c_void_p, c.c_int, c.c_int, c.POINTER(_Pupil)]
    lib.pt_detector_message.restype = c.c_char_p
    lib.pt_detector_message.argtypes = [c.c_void_p]
    lib.pt_detector_close.restype = None
    lib.pt_detector_close.argtypes = [c.c_void_p]


_lib = _load()


def version():
    """The library's version, e.g. '0.1.0'."""
    return _lib.pt_version().decode()


def _param_text(key, value):
    if isinstance(value, bool):
        value = int(value)
    return "%s=%s" % (key, value)


def _as_frames(array):
    """array as a stack of frames the library reads in place: uint8 or
    native-order uint16, samples of a row adjacent, rows and frames at
    positive distances. Returns (stack, depth)."""
    a = np.asarray(array)
    if a.dtype == np.uint8:
        depth = 8
    elif a.dtype == np.uint16:
        depth = 16
        if not a.dtype.isnative:
            a = a.astype(np.uint16)
    else:
        raise TypeError("pupiltrack: frames are uint8 or uint16 arrays, not %s" % a.dtype)
    if a.ndim == 2:
        a = a[np.newaxis]
    elif a.ndim != 3:
        raise ValueError("pupiltrack: a frame is 2-D (height x width), a stack 3-D, "
                         "not %d-D" % a.ndim)
    if a.shape[0] == 0 or a.shape[1] == 0 or a.shape[2] == 0:
        raise ValueError("pupiltrack: empty frame %r" % (a.shape,))
    if (a.strides[2] != a.itemsize or a.strides[1] < a.shape[2] * a.itemsize
            or a.strides[0] <= 0):
        a = np.ascontiguousarray(a)
    return a, depth


def _result(p):
    found = p.status == 0
    circle = found and p.has_circle
    ellipse = found and p.has_ellipse
    return {
        "status": _STATUS[p.status],
        "eye": p.eye.decode() if p.eye != b"\0" else "",
        "cx": p.cx if found else None,
        "cy": p.cy if found else None,
        "r": p.radius if circle else None,
        "a": p.ellipse_a if ellipse else None,
        "b": p.ellipse_b if ellipse else None,
        "theta": p.ellipse_theta if ellipse else None,
        "confidence": p.confidence,
        "ms": p.ms,
        "message": p.message.decode(errors="replace") if p.status == 2 else "",
    }


class Detector:
    """A detector: algorithm 'starburst', 'tl' or 'hough'; backend 'omp' or
    'cuda'; keyword arguments are the parameters `pupiltrack params` lists and
    ellipse, binocular, sequence, threads, bits, device (see pupiltrack(3))."""

    def __init__(self, algorithm="starburst", backend="omp", **params):
        texts = [_param_text(k, v).encode() for k, v in params.items()]
        array = (ctypes.c_char_p * max(len(texts), 1))(*texts)
        message = ctypes.create_string_buffer(512)
        handle = ctypes.c_void_p()
        st = _lib.pt_detector_open(ctypes.byref(handle), algorithm.encode(), backend.encode(),
                                   array, len(texts), message, len(message))
        if st:
            raise PupiltrackError(_API_STATUS[st], message.value.decode(errors="replace"))
        self._handle = handle
        self.eyes = _lib.pt_detector_eyes(handle)

    def close(self):
        """Release the detector (also done when it is garbage-collected)."""
        if getattr(self, "_handle", None):
            _lib.pt_detector_close(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def detect(self, frames):
        """Detect in one frame (2-D array): a dict, or with binocular=True a
        list [left, right]. A stack (3-D array) gives a list of those, one per
        frame."""
        if self._handle is None:
            raise ValueError("pupiltrack: the detector is closed")
        single = np.ndim(frames) == 2
        stack, depth = _as_frames(frames)
        n, height, width = stack.shape
        base = stack.ctypes.data
        pointers = (ctypes.c_void_p * n)(*(base + i * stack.strides[0] for i in range(n)))
        st = _lib.pt_detector_detect_batch(self._handle, pointers, n, width, height,
                                           stack.strides[1], depth)
        if st:
            raise PupiltrackError(_API_STATUS[st],
                                  _lib.pt_detector_message(self._handle).decode(errors="replace"))
        out = []
        p = _Pupil()
        for i in range(n):
            eyes = []
            for e in range(self.eyes):
                _lib.pt_detector_result(self._handle, i, e, ctypes.byref(p))
                eyes.append(_result(p))
            out.append(eyes[0] if self.eyes == 1 else eyes)
        return out[0] if single else out


def detect(frames, algorithm="starburst", backend="omp", **params):
    """Detect with a detector made for this call: see Detector and Detector.detect."""
    with Detector(algorithm, backend, **params) as det:
        return det.detect(frames)
