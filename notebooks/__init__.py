"""Notebooks that read results and call horde.analysis; a package only so that their conftest
does not shadow the tests' one."""
