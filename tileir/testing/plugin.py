"""pytest plugin: the ``tileir_device`` fixture, one test per device.

A test that takes ``tileir_device`` runs once on the fake device
(``FakeDevice(mode="interpret")``, always) and once on the real device.  Where
there is no real device the ``real`` case is still collected and reported as
skipped with the reason (no GPU, no driver, no cuda-python, no assembler); the
reason is worked out once per process (:func:`tileir.testing.devices.real_device_status`)
and shown in pytest's header.  ``TILEIR_REAL_DEVICE=1`` makes the real case run
(and fail) even when the probe finds nothing; ``=0`` skips it.

Installed tileir registers it as the pytest11 entry point named
``tileir.testing.plugin``.  Without that, name it in the root conftest.py or a test
module: ``pytest_plugins = tileir.testing.as_pytest_plugins()`` (``["tileir.testing.plugin"]``
unless an entry point already loads it: pytest refuses a plugin registered twice
under two names).  Nothing here imports cuda-python: the real device is opened when the first
real test asks for it, and closed at the end of the session.

A test that checks a kernel on every device::

    def test_scale(tileir_device):
        check_kernel(make_scale, reference, device=tileir_device)
"""

from __future__ import annotations

import pytest

from tileir.testing.devices import as_pytest_plugins, real_device_required, real_device_status

__all__ = [
    "DEVICE_KINDS",
    "DeviceFixtures",
    "pytest_configure",
    "pytest_generate_tests",
    "pytest_report_header",
    "as_pytest_plugins",
]


#: The parameter ids of ``tileir_device``.
DEVICE_KINDS = ("fake", "real")


def pytest_report_header(config: pytest.Config) -> str:
    ok, reason = real_device_status()
    return f"tileir real device: {'present' if ok else 'absent'} ({reason})"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "tileir_device" not in metafunc.fixturenames:
        return
    ok, reason = real_device_status()
    real_marks = (
        ()
        if ok or real_device_required()
        else (pytest.mark.skip(reason=f"no real device: {reason}"),)
    )
    metafunc.parametrize(
        "tileir_device",
        [
            pytest.param("fake", id="fake"),
            pytest.param("real", id="real", marks=real_marks),
        ],
        indirect=True,
    )


class DeviceFixtures:
    """The plugin's fixtures.  They live on an object that ``pytest_configure`` registers,
    not at module level: ``--doctest-modules`` collects this module as a test module too,
    and would otherwise claim its fixtures for ``tileir/testing/plugin.py`` alone."""

    @pytest.fixture(scope="session")
    def _tileir_real_device(self):
        # lazy: start-up cost of every pytest session that loads the plugin, and the
        # real device needs cuda-python
        from tileir.real.device import RealDevice

        device = RealDevice().open()
        try:
            yield device
        finally:
            device.close()

    @pytest.fixture
    def tileir_device(self, request):
        """The device a test runs on: the fake device, then (where present) the real one."""
        kind = getattr(request, "param", "fake")
        if kind == "fake":
            # lazy: start-up cost of every pytest session that loads the plugin
            from tileir.fake import FakeDevice

            return FakeDevice(mode="interpret")
        if kind == "real":
            return request.getfixturevalue("_tileir_real_device")
        raise ValueError(
            f"tileir_device: unknown kind {kind!r} (one of {', '.join(DEVICE_KINDS)})"
        )


_FIXTURES = "tileir-device-fixtures"


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.has_plugin(_FIXTURES):
        config.pluginmanager.register(DeviceFixtures(), _FIXTURES)
