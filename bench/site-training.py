#!/usr/bin/env python3
# Site training over every page of the served sites: word-LCS F1 of the default
# extractor alone, with --site-training links and with --site-training menu, against
# the text of each page's content region (the element its SOURCE.md names). Offline:
# the site folders are the page source (--source DIR). Usage: bench/site-training.py
# (after cargo build --release). Prints one row per page and the means.
import subprocess, json, sys, os, re
HERE=os.path.dirname(os.path.abspath(__file__))
G=os.path.join(HERE, "..", "target", "release", "gleaner")
sites={"linux-shell":("itemprop","articleBody"),"shell-novice":("id","main-content")}
def gold(path, attr):
    # The text of the content region, with a line break at block tags.
    from html.parser import HTMLParser
    class P(HTMLParser):
        def __init__(s):
            super().__init__(); s.depth=0; s.out=[]; s.stack=[]
        def handle_starttag(s,t,a):
            void=t in ("br","img","hr","meta","link","input","wbr","area","col","source")
            if s.depth==0 and dict(a).get(attr[0])==attr[1]:
                s.depth=1; s.stack=[t]; return
            if s.depth and not void: s.stack.append(t)
            if s.depth and t in("p","div","li","h1","h2","h3","pre","tr","br"): s.out.append("\n")
        def handle_endtag(s,t):
            if s.depth and s.stack:
                while s.stack:
                    x=s.stack.pop()
                    if x==t: break
                if not s.stack: s.depth=0
        def handle_data(s,d):
            if s.depth: s.out.append(d)
    p=P(); p.feed(open(path,encoding="utf-8").read()); return "".join(p.out)
def words(t): return re.findall(r"\w+",t.lower())
def lcs_f1(a,b):
    a=words(a); b=words(b)
    if not a or not b: return 0.0
    # DP LCS O(nm) with rows
    prev=[0]*(len(b)+1)
    for x in a:
        cur=[0]
        for j,y in enumerate(b):
            cur.append(prev[j]+1 if x==y else max(prev[j+1],cur[j]))
        prev=cur
    l=prev[-1]; p=l/len(a); r=l/len(b)
    return 0 if l==0 else 2*p*r/(p+r)
res=[]
for site,attr in sites.items():
    root=os.path.join(HERE, "..", "..", "shared", "data", "sites", site, "site")
    pages=[]
    for dp,dn,fn in os.walk(root):
        for f in fn:
            if f.endswith(".html"):
                p=os.path.join(dp,f)
                if "aio" not in p and attr[1] in open(p,encoding="utf-8",errors="replace").read(): pages.append(p)
    for p in sorted(pages):
        rel=os.path.relpath(p,root)
        url="http://localhost/"+(rel[:-10] if rel.endswith("/index.html") else rel)
        g=gold(p,attr)
        row=[site,rel]
        for mode in [None,"links","menu"]:
            cmd=[G,"extract","-f","jsonl","--source",root,url]+(["--site-training",mode] if mode else [])
            o=subprocess.run(cmd,capture_output=True,text=True)
            try: rec=json.loads(o.stdout.splitlines()[0])
            except Exception: row.append(None); continue
            row.append(round(lcs_f1(rec.get("text") or "",g),4))
        res.append(row); print(*row, flush=True)
import statistics
for i,m in enumerate(["alone","links","menu"]):
    v=[r[2+i] for r in res if r[2+i] is not None]
    print(m, round(statistics.mean(v),4), "below alone:", sum(1 for r in res if r[2+i] is not None and r[2] is not None and r[2+i]<r[2]-1e-4))
