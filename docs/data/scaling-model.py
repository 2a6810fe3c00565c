#!/usr/bin/env python3
"""Weak- and strong-scaling model of the distributed AB pattern (D3Q19) on H100 GPUs; docs/performance.md,
"Scaling model", states the assumptions. Prints the table's rows. Run: python3 docs/data/scaling-model.py"""

# Single-GPU rates, MLUPS, H100 AB D3Q19 LBGK cavity3d (docs/performance.md, size sweep of 2026-11-22);
# 512^3 is taken as the 384^3 figure (the curve is flat above 192^3).
RATE = {64: (6648, 12616), 128: (8518, 15396), 256: (8897, 15663), 384: (8937, 16151), 512: (8937, 16151)}
NVLINK_BW, NVLINK_LAT = 360e9, 2e-6  # per GPU and direction: 80% of NVLink 4's 450 GB/s; per message
IB_BW, IB_LAT = 45e9, 3e-6           # one NDR 400 Gb/s port per GPU: 90% of 50 GB/s; per message
MEM_BW = 2.83e12                     # copy bandwidth measured by the backend (pack/unpack traffic)
LAUNCH = 10e-6                       # extra kernel launches per step (pack, unpack, boundary/interior split)


def step(n, size, faces_nvlink, faces_ib):
    """One step of a rank owning an n^3 box with that many neighbour faces over NVLink and over InfiniBand."""
    t_alone = n ** 3 / (RATE[n][0 if size == 8 else 1] * 1e6)
    faces = faces_nvlink + faces_ib
    edges = 3 if faces == 3 else 12                      # diagonal neighbours: 1 population per edge node
    face_bytes = 5 * n * n * size                        # 5 D3Q19 populations cross a face node
    halo = faces * face_bytes + edges * n * size         # each direction
    t_pack = 2 * 2 * halo / MEM_BW                       # pack and unpack: read + write each
    t_nv = faces_nvlink * face_bytes / NVLINK_BW + (faces_nvlink + edges) * NVLINK_LAT
    t_ib = faces_ib * face_bytes / IB_BW + faces_ib * IB_LAT if faces_ib else 0.0
    t_comm = max(t_nv, t_ib)
    tiles = n // 4
    boundary = 1 - ((tiles - 1) / tiles) ** 3 if faces == 3 else 1 - ((tiles - 2) / tiles) ** 3
    t_boundary = boundary * t_alone                      # updated first, then the sends go out
    t = t_boundary + max(t_alone - t_boundary, t_comm) + t_pack + LAUNCH
    return t_alone, t, t_comm, halo


if __name__ == "__main__":
    print("weak scaling (efficiency = one GPU alone / one GPU among many)")
    for size, name in ((8, "FP64"), (4, "FP32")):
        for n in (256, 512):
            a, t8, c8, h8 = step(n, size, 3, 0)      # 2x2x2 GPUs of one node: 3 faces over NVLink
            _, t64, c64, h64 = step(n, size, 3, 3)   # 8x8x8 GPUs of 64 nodes: 3 more faces over InfiniBand
            print(f"| {name} | {n}^3 | {a*1e3:.2f} | {h8/1e6:.1f} | {c8*1e6:.0f} | {a/t8:.3f} | "
                  f"{h64/1e6:.1f} | {c64*1e6:.0f} | {a/t64:.3f} |")
    print("strong scaling of 1024^3 (efficiency against 8 GPUs)")
    for size, name in ((8, "FP64"), (4, "FP32")):
        base = step(512, size, 3, 0)[1]
        for gpus, n, ib in ((8, 512, 0), (64, 256, 3), (512, 128, 3)):
            _, t, c, h = step(n, size, 3, ib)
            print(f"| {name} | {gpus} | {n}^3 | {t*1e3:.3f} | {1024**3/t/1e9:.0f} | {h/1e6:.2f} | {c*1e6:.0f} | "
                  f"{base*8/gpus/t:.3f} |")
