"""Field outputs in pieces against the single-process files, bit for bit (docs/outputs.md).

Usage: compare_pieces.py REF_DIR DIR

For every REF_DIR/fields_<step>.vti (and wss_<step>.vti, average_<step>.vti), DIR must hold <stem>.pvti: VTK's vtkXMLPImageDataReader (what
ParaView uses) assembles it into one image that must equal the single file in extent, origin, spacing and every
point array, byte for byte (NaN at solid nodes included); and each piece file, read alone, must equal the
single file over the piece's extent. The pieces must cover the whole extent: a node no piece has would not
come back equal. Prints one line per failure and exits 1, or one summary line and 0. Exit 77 without VTK.
"""
import glob
import os
import sys

try:
    import numpy as np
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
except ImportError:
    print("SKIPPED: needs python3-vtk9 and numpy")
    sys.exit(77)


def read(path, parallel):
    r = vtk.vtkXMLPImageDataReader() if parallel else vtk.vtkXMLImageDataReader()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()


def arrays(img):
    pd = img.GetPointData()
    return {pd.GetArrayName(i): vtk_to_numpy(pd.GetArray(i)) for i in range(pd.GetNumberOfArrays())}


def main():
    ref_dir, out_dir = sys.argv[1], sys.argv[2]
    fails, files, pieces = 0, 0, 0
    refs = [p for prefix in ("fields_", "wss_", "average_") for p in glob.glob(os.path.join(ref_dir, prefix + "*.vti"))]
    for ref_path in sorted(refs):
        stem = os.path.basename(ref_path)[:-4]
        pvti = os.path.join(out_dir, stem + ".pvti")
        if not os.path.exists(pvti):
            print(f"FAIL {pvti}: missing")
            fails += 1
            continue
        ref, got = read(ref_path, False), read(pvti, True)
        a, b = arrays(ref), arrays(got)
        if ref.GetExtent() != got.GetExtent() or ref.GetOrigin() != got.GetOrigin() or ref.GetSpacing() != got.GetSpacing():
            print(f"FAIL {pvti}: extent/origin/spacing {got.GetExtent()} {got.GetOrigin()} {got.GetSpacing()}, "
                  f"the single file {ref.GetExtent()} {ref.GetOrigin()} {ref.GetSpacing()}")
            fails += 1
            continue
        if sorted(a) != sorted(b):
            print(f"FAIL {pvti}: arrays {sorted(b)}, the single file {sorted(a)}")
            fails += 1
            continue
        for name in a:
            if a[name].dtype != b[name].dtype or a[name].tobytes() != b[name].tobytes():
                print(f"FAIL {pvti}: array {name} differs from {ref_path}")
                fails += 1
        dims = [ref.GetDimensions()[k] for k in range(3)]
        for piece_path in sorted(glob.glob(os.path.join(out_dir, stem, stem + "_*.vti"))):
            p = read(piece_path, False)
            e = p.GetExtent()
            for name, values in arrays(p).items():
                whole = a[name].reshape(dims[2], dims[1], dims[0], -1)
                part = whole[e[4]:e[5] + 1, e[2]:e[3] + 1, e[0]:e[1] + 1].reshape(values.shape)
                if part.tobytes() != values.tobytes():
                    print(f"FAIL {piece_path}: array {name} differs from {ref_path} over the extent {e}")
                    fails += 1
            pieces += 1
        files += 1
    if files == 0:
        print(f"FAIL {ref_dir}: no field files to compare")
        fails += 1
    if fails:
        sys.exit(1)
    print(f"{files} datasets ({pieces} pieces) bitwise equal to the single files")


main()
