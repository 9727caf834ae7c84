"""Seats and rights: which game and seats a secret link opens, who may act for which seat, and
who may hand a seat to a bot.

A token opens one seat (`seat`), the hot-seat table (`table`: every human seat), the host's
page (`host`) or a spectator's (`spectator`); the server's own bots act as `bot`. A seat handed
to a bot refuses its former player; the store checks that again in the same statement that
stores an action (another server may just have handed it over)."""
from __future__ import annotations

from pax_hispanica.web.db.store import Storage
from pax_hispanica.web.play.model import LiveGame, Rights, ServerError


class Seats:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def resolve(self, token: str) -> Rights:
        """Which game and seats a secret token opens."""
        seat_row, game = await self.storage.token(token)
        if seat_row is not None:
            return Rights(seat_row.game_id, "seat", frozenset([seat_row.seat]))
        if game is None:
            raise ServerError("unknown_token", "no game has this link", status=404)
        if game.spectator_token == token:
            return Rights(game.id, "spectator")
        if game.mode == "hotseat":  # from the seats table: no replay needed to know who plays here
            seat_rows = await self.storage.game_seats(game.id)
            return Rights(game.id, "table", frozenset(s.seat for s in seat_rows if s.kind == "human"))
        return Rights(game.id, "host")

    async def claim(self, rights: Rights, uid: str) -> None:
        """Remember that this user plays this seat (for their list of games)."""
        if rights.role != "seat":
            return
        (seat,) = rights.seats
        await self.storage.claim_seat(rights.game_id, seat, uid)

    @staticmethod
    def check_may_act(rights: Rights, seat: int) -> None:
        if not rights.may_act_for(seat):
            raise ServerError("wrong_seat", f"you may not act for seat {seat}", status=403)

    @staticmethod
    def controller(rights: Rights) -> str:
        """Who the caller acts as: "bot" (the server's bots) or "human"."""
        return "bot" if rights.role == "bot" else "human"

    @classmethod
    def check_still_theirs(cls, rights: Rights, live: LiveGame, seat: int) -> None:
        """A person's action for a seat a bot plays now is refused (and the other way round)."""
        if cls.controller(rights) != "bot" and live.seats[seat].kind != "human":
            raise ServerError("wrong_seat", "a bot plays this seat now", status=403)

    @staticmethod
    def lost_seat(kind: str) -> ServerError:
        return ServerError("wrong_seat", "a bot plays this seat now" if kind == "human"
                           else "a person plays this seat now", status=403)

    @staticmethod
    def check_may_hand_to_bot(rights: Rights, live: LiveGame, seat: int) -> None:
        """That seat's player, the game's host (or the hot-seat table), or, once the player has
        left (away), another player may hand a seat to a bot."""
        if not (0 <= seat < len(live.seats)):
            raise ServerError("malformed", "no such seat")
        others_may = rights.role == "seat" and seat in live.away  # the player has left
        if not (rights.role in ("host", "table") or rights.may_act_for(seat) or others_may):
            raise ServerError("wrong_seat", "only that seat's player, the game's host, or (once the player has "
                              "left) another player may hand a seat to a bot", status=403)
