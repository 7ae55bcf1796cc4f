"""The real device: tileiras cubins launched on an NVIDIA GPU through cuda-python.

* :mod:`tileir.real.tileiras` -- find and run ``tileiras`` / ``tileirdisasm``.
* :mod:`tileir.real.cache` -- ``cubin_for(bytecode, arch)``: assemble once per content.
* :mod:`tileir.real.cubin` -- read a cubin's kernels and their EIATTR records
  (parameter table, threads per CTA, cluster shape) without any library.
* :mod:`tileir.real.params` -- pack arguments by the calling convention below and
  check the packing against the cubin's parameter table.
* :mod:`tileir.real.arrays` -- take CuPy / Numba / PyTorch GPU arrays without a copy
  (CUDA array interface, DLPack).
* :mod:`tileir.real.driver` -- ``CudaContext``: the driver API (imported lazily;
  a missing piece is one ``DeviceUnavailableError``).
* :mod:`tileir.real.device` -- :class:`RealDevice`: the host program API (alloc,
  copy in, launch, copy out) on a GPU, with the fake device's launch checks.
* :mod:`tileir.real.prebuilt` -- cubins assembled elsewhere, found by content
  (``$TILEIR_CUBIN_DIR``), for GPU machines without tileiras.

The device gate (golden kernels against their references on a GPU, one ledger
row per run) is :mod:`tileir.kernels.device_gate`: it needs the bundled kernels,
which sit above this package.

The entry's parameters follow the calling convention of
:mod:`tileir.record.convention`; each argument sits in the kernel's parameter
block at its natural size and alignment (pointers 8 bytes); tileir.real.params
has the table, checked against tileiras's cubins.

Importing this package never imports cuda-python or loads libcuda.
"""

__all__ = ["RealDevice"]


def __getattr__(name: str):
    # lazy: start-up cost; RealDevice is exported lazily, so `import tileir.real` stays light
    if name == "RealDevice":
        from tileir.real.device import RealDevice

        return RealDevice
    raise AttributeError(f"module 'tileir.real' has no attribute {name!r}")
