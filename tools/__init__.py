"""Developer tools of the tileir repository (not part of the installed package)."""
