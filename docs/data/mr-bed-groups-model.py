# Sizing model for docs/performance-notes.md, "GPU MR: the bed's groups counted" (issue 12, gpu-mr-bed4): run with
# `python3 docs/data/mr-bed-groups-model.py` (about 12 s; output in mr-bed-groups-model.txt).
# The bed of cases/spheres.ini (core/case/tess_shapes.c's tess_random_spheres: splitmix64, seed 1, diameter 40,
# until porosity 0.5; the two x faces painted open by the outlets), its 4^3 tiles, and the GPU MR's 2x2x2 groups
# (tess_gpu_mr_upload: a group per 2x2x2 block of tile positions holding a stored tile): the member slots without a
# stored tile, and the gather's places (10^3 halo, D3Q19 without its 8 corners) by warp.
import math, collections, sys
M = (1 << 64) - 1
st = [1]
def sm():
    st[0] = (st[0] + 0x9E3779B97F4A7C15) & M
    z = st[0]
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)
def uni():
    return (sm() >> 11) * 2.0 ** -53
N = 192
t = bytearray(b'\x01') * (N ** 3)
total = N ** 3; opn = total; r = 20.0; r2 = r * r; ns = 0
while opn > 0.5 * total:
    c = [uni() * N for _ in range(3)]
    a = [max(0, math.ceil(v - r)) for v in c]; b = [min(N - 1, math.floor(v + r)) for v in c]
    for z in range(a[2], b[2] + 1):
        dz = (z - c[2]) ** 2
        for y in range(a[1], b[1] + 1):
            dyz = dz + (y - c[1]) ** 2
            if dyz > r2: continue
            base = N * (y + N * z)
            for x in range(a[0], b[0] + 1):
                if dyz + (x - c[0]) ** 2 <= r2 and t[base + x]:
                    t[base + x] = 0; opn -= 1
    ns += 1
for z in range(N):
    for y in range(N):
        t[N * (y + N * z)] = 1; t[N * (y + N * z) + N - 1] = 1
fluid = sum(t)
T = N // 4
tile = bytearray(T ** 3)
for z in range(N):
    for y in range(N):
        base = N * (y + N * z); tb = (y // 4) * T + (z // 4) * T * T
        for x in range(N):
            if t[base + x]: tile[tb + x // 4] = 1
stored = sum(tile)
print("spheres %d fluid %d stored tiles %d eta_t %.3f dry of stored %.3f" % (ns, fluid, stored, fluid / (64 * stored), 1 - fluid / (64 * stored)))
def tl(i, j, k):  # tile stored? x not periodic, y z periodic
    if i < 0 or i >= T: return 0
    return tile[(i % T) + T * ((j % T) + T * (k % T))]
def node(x, y, z):
    return t[x + N * ((y % N) + N * (z % N))]
G = T // 2
groups = 0; fill = collections.Counter(); slots_empty = 0
wi = 0; wi_nowet_load = 0; wi_all_empty = 0; places_load = 0; places_dry_load = 0
cw = 0; cw_alldry = 0; cw_empty = 0
for gz in range(G):
    for gy in range(G):
        for gx in range(G):
            mem = [tl(2 * gx + (m & 1), 2 * gy + ((m >> 1) & 1), 2 * gz + (m >> 2)) for m in range(8)]
            if not any(mem): continue
            groups += 1; fill[sum(mem)] += 1; slots_empty += 8 - sum(mem)
            x0, y0, z0 = 8 * gx - 1, 8 * gy - 1, 8 * gz - 1
            cls = []
            for j in range(1000):
                hx, hy, hz = j % 10, (j // 10) % 10, j // 100
                out = (hx in (0, 9)) + (hy in (0, 9)) + (hz in (0, 9))
                x, y, z = x0 + hx, y0 + hy, z0 + hz
                if out == 3 or not tl((x + 4) // 4 - 1 if x >= 0 else -1, y // 4, z // 4) or x >= N:
                    cls.append(0)
                else:
                    cls.append(2 if node(x, y, z) else 1)
            for i in range(0, 1000, 32):
                w = cls[i:i + 32]; wi += 1
                places_load += sum(1 for v in w if v); places_dry_load += w.count(1)
                if 2 not in w and 1 in w: wi_nowet_load += 1
                if not any(w): wi_all_empty += 1
            for m in range(8):
                for h in (0, 1):
                    cw += 1
                    if not mem[m]: cw_empty += 1; continue
                    tx, ty, tz = 2 * gx + (m & 1), 2 * gy + ((m >> 1) & 1), 2 * gz + (m >> 2)
                    wet = sum(node(4 * tx + n % 4, 4 * ty + (n // 4) % 4, 4 * tz + n // 16) for n in range(32 * h, 32 * h + 32))
                    if wet == 0: cw_alldry += 1
one = 0
for gz in range(G):
    for gy in range(G):
        for gx in range(G):
            lay = [any(tl(2 * gx + (m & 1), 2 * gy + (m >> 1), 2 * gz + l) for m in range(4)) for l in (0, 1)]
            one += lay[0] != lay[1]
print("groups with stored tiles in one of their two tile layers: %d" % one)
for ox in (0, 1):
    for oy in (0, 1):
        keys = set(((i + ox) // 2, (j + oy) // 2, k // 2) for k in range(T) for j in range(T) for i in range(T) if tile[i + T * (j + T * k)])
        print("group grid moved by (%d, %d) tiles: %d groups" % (ox, oy, len(keys)))
print("groups %d of %d; member slots without a stored tile %.3f; fill %s" % (groups, G ** 3, slots_empty / (8 * groups), sorted(fill.items())))
print("gather warp-iterations %d: no place loaded %.3f, places loaded but none wet %.3f; loaded places dry %.3f" % (wi, wi_all_empty / wi, wi_nowet_load / wi, places_dry_load / places_load))
print("compute warps %d: of an empty slot %.3f, of a stored tile but all dry %.3f" % (cw, cw_empty / cw, cw_alldry / cw))
