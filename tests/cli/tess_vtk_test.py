"""Helpers of the command-line tests that read .vti files with VTK (python3-vtk9): the caller imports vtk first
(and reports SKIPPED without it)."""
import math

import vtk


def read_vti(path):
    r = vtk.vtkXMLImageDataReader()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()


def values(img, name):
    a = img.GetPointData().GetArray(name)
    if a is None:
        return None
    return [a.GetComponent(i, k) for i in range(a.GetNumberOfTuples()) for k in range(a.GetNumberOfComponents())]


def rel_diff(a, b, scale_of):
    """Largest |a - b| over the finite entries, relative to the largest |scale_of|; inf when NaN patterns differ."""
    scale = max(abs(v) for v in scale_of if not math.isnan(v))
    worst = 0.0
    for x, y in zip(a, b):
        if math.isnan(x) or math.isnan(y):
            if not (math.isnan(x) and math.isnan(y)):
                return math.inf
            continue
        worst = max(worst, abs(x - y) / scale)
    return worst
