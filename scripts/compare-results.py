import csv,sys,math
a={ (r['image'],r['eye']):r for r in csv.DictReader(open(sys.argv[1]))}
b={ (r['image'],r['eye']):r for r in csv.DictReader(open(sys.argv[2]))}
diff=0;st=0;n=0;ex=[]
for k,r in a.items():
    s=b.get(k); n+=1
    if not s: continue
    if r['status']!=s['status']: st+=1; ex.append((k,r['status'],s['status'])); continue
    if r['status']=='ok':
        d=max(abs(float(r['cx'])-float(s['cx'])),abs(float(r['cy'])-float(s['cy'])),abs(float(r['r'])-float(s['r'])))
        if d>0.5: diff+=1; ex.append((k,r['cx'],r['cy'],r['r'],s['cx'],s['cy'],s['r']))
print(sys.argv[1],"n",n,"status differ",st,"beyond 0.5",diff); print(ex[:4])
