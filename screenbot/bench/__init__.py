"""Running the solver's benchmark at scale: where its shards are played (this process, local worker
processes, a Dask cluster) and the plot of its results against the published figures. The games
themselves are ``solver.bench``'s."""
