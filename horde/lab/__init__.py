"""The laboratory: experiment files, the runners that play them (processes, Dask), results folders,
statistics, analysis, plots, the HTML report, tuning, the benchmark and the policy puzzles. It
prepares and plays setups through ``horde.play``; the engine never imports it."""
