"""The web game's routes, one router per kind of client:

- `pages`: the HTML pages (lobby, the lobby form, host, play/watch, replay, rules, health);
- `api`: the JSON API under /api (create, view, act, seat to bot, record);
- `ws`: the WebSockets (a game's live connection, whose messages are dispatched through a
  table of typed handlers, and /ws/echo);
- `errors`: how refusals and failures are answered (the JSON envelope or a page);
- `common`: what they share (`Site`: the services, templates, limits and request helpers,
  kept on `app.state.site`).

`server.create_app` only wires these together.
"""
