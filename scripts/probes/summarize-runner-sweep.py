import json,sys
reqs={}
for l in open(sys.argv[1]):
    r=json.loads(l); reqs[r['id']]=r
base=None
for l in open(sys.argv[2]):
    try: e=json.loads(l)
    except: continue
    if e.get('event') not in ('result','error'): continue
    r=reqs.get(e.get('id'));
    if not r: continue
    if e['event']=='error': print(r['stage'], r.get('params'), 'ERROR', e.get('kind'), e.get('message')[:200]); continue
    ms=e['timing']['median_ms']; sz=r['size']
    if r['stage']=='cublas_fp32': base=ms; print('cublas', sz, round(ms,4)); continue
    c=e.get('compiled',{})
    print(f"{sz['m']}x{sz['n']}x{sz['k']} {r['stage']} {r['params']} {ms:.4f} ms {100*base/ms:.1f}% regs {c.get('registers')} ok {e.get('verify',{}).get('passed')}")
