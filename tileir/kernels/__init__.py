"""The bundled kernels with their host references, and what is checked over them.

* :mod:`.registry` -- the table of bundled kernels (KernelSpec: build, reference, inputs,
  tolerance, family); the families are the other modules here (chapter, elementwise,
  conversions, matmuls, ...);
* :mod:`.gates` -- gates 0 to 2 and the golden files; :mod:`.device_gate` -- gate 2 on a GPU;
* :mod:`.coverage` -- which ops, types and attribute values the kernels cover;
* :mod:`.prebuild` -- the kernels as prebuilt cubins for GPU machines without tileiras.
"""
