"""Game analysis in the web game (issue 40) and the Hint of unrated games (issue 38): the job
queue of analyses (`schema`, `store`), the worker that runs them (`worker`), what the page shows
(`present`), the Hint (`hint`) and the routes (`routes`)."""
