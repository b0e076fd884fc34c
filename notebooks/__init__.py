"""Notebooks that read results and call horde.lab.analysis; a package only so that their conftest
does not shadow the tests' one."""
