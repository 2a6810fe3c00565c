# EXPERIMENT (cpu-skew branch, reverted): an LRU model of the L1d (64 sets) under the AA odd step of one thread,
# D3Q19/D3Q27 at 128^3, per tile: the pull (rows of 27 tiles into the buffer), the collision (buffer), the swapped
# store (the same rows). run(lat, res=lines mod 64 of a direction, gap/sh=tile-row padding, parts=z parts, ways=8|12)
# returns (L1 misses, accesses) per tile.
# L1 model of the AA odd step's tile (D3Q19/D3Q27 FP64, 128^3, tiles 4^3, x fastest): LRU, 64 sets x 8 ways.
import sys, itertools
from collections import OrderedDict
def lattice(name):
    if name=='d3q19':
        v=[(0,0,0)]+[c for c in itertools.product((-1,0,1),repeat=3) if 0<sum(map(abs,c))<=2]
    else:
        v=[(0,0,0)]+[c for c in itertools.product((-1,0,1),repeat=3) if sum(map(abs,c))>0]
    return v
def run(lat="d3q19", N=32, gap=0, sh=5, dirpad=None, bufoff=0, ntile=400, warm=150, even=False, ways=8, VS=8, res=None, parts=1):
    C=lattice(lat); q=len(C)
    NT=N**3
    pos=lambda k: 64*k + gap*(k>>sh) if gap else 64*k
    used=pos(NT+2)
    lines=(used*VS+63)//64
    if lines%2==0: lines+=1
    if dirpad is not None: lines += dirpad
    if res is not None: lines += (res - lines) % 64
    ds=lines*64//VS
    sets=[OrderedDict() for _ in range(64)]
    miss=[0]; acc=[0]
    BUF=(1<<40)+bufoff*64
    def touch(addr):
        ln=addr//64; s=sets[ln%64]; acc[0]+=1
        if ln in s: s.move_to_end(ln); return
        miss[0]+=1; s[ln]=1
        if len(s)>ways: s.popitem(last=False)
    def tid(x,y,z): return x+N*(y+N*z)
    k0=tid(5,10,10)
    res=[]
    for t in range(ntile):
        k=k0+t; x=k%N; y=(k//N)%N; z=k//(N*N)
        if t==warm: miss[0]=0; acc[0]=0
        if even:
          for i in range(q):
            for o in range(0,64,64//VS): touch((pos(k)+i*ds+o)*VS); touch(BUF+(i*64+o)*VS)
          for c in range(8):
            for i in range(q): touch(BUF+(i*64+8*c)*VS)
            for i in range(q): touch(BUF+(i*64+8*c)*VS)
        for h in range(parts if not even else 0):
          zr=range(h*4//parts,(h+1)*4//parts)
          rowsread=[]
          for i,(cx,cy,cz) in enumerate(C):
            for zz in zr:
                for yy in range(4):
                    zu=zz-cz; yu=yy-cy
                    sz=-1 if zu<0 else (1 if zu>=4 else 0); sy=-1 if yu<0 else (1 if yu>=4 else 0)
                    row=4*((yu-4*sy)+4*(zu-4*sz))
                    a=pos(tid(x,y+sy,z+sz))+i*ds+row
                    b=pos(tid(x+(-1 if cx>0 else 1),y+sy,z+sz))+i*ds+row
                    n0=4*(yy+4*zz)
                    if cx==0: r=[a]
                    elif cx>0: r=[b+3,a]
                    else: r=[a+1,b]
                    rowsread.append((r, BUF+(i*64+n0)*VS))
          for r,bf in rowsread:
            for v in r: touch(v*VS)
            touch(bf)
          for c in range(h*8//parts,(h+1)*8//parts):
            for i in range(q): touch(BUF+(i*64+8*c)*VS)
            for i in range(q): touch(BUF+(i*64+8*c)*VS)
          for r,bf in rowsread:
            touch(bf)
            for v in r: touch(v*VS)
    return miss[0]/(ntile-warm), acc[0]/(ntile-warm)
if __name__=='__main__':
    lat=sys.argv[1]
    for gap,sh in [(0,5),(8,5),(16,5),(24,5),(40,5),(56,5),(72,5),(136,5),(8,4),(8,3),(64,5),(8,0),(16,0)]:
        r=[run(lat,gap=gap,sh=sh,bufoff=b) for b in (0,21)]
        print(lat,'gap',gap,'sh',sh,'misses/tile',[round(m,1) for m,a in r],'acc',round(r[0][1]))
