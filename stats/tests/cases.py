"""Two small games worked out by hand (the expected figures are in the tests).

Game 1, four players, seats Ann 0, Bo 1, Cy 2, Di 3:
- round 1, Ann tells; cards: 1 Bo's (Cy votes), 2 Ann's (Bo), 3 Cy's (Di), 4 Di's.
  One of three found it: just right. Ann 3, Bo 3+1, Cy 1, Di 0.
- round 2, Bo tells; cards: 1 Bo's (Ann, Cy, Di), 2 Ann's, 3 Cy's, 4 Di's.
  All found it: Bo 0, the others 2.
- round 3, Cy tells; cards: 1 Di's (Ann, Bo), 2 Cy's, 3 Ann's (Di), 4 Bo's.
  Nobody found it: Cy 0, the others 2; Di +2, Ann +1 for their decoys.
- round 4, Di gives no clue in time: skipped, no points.
Scores: Ann 8, Bo 6, Cy 3, Di 6. Places: Ann 1, Bo 2, Di 2, Cy 4.

Game 2, three players Ann 0, Bo 1, Cy 2 (two cards each), one round:
- Bo tells; cards: 1 Ann's, 2 Bo's (Cy), 3 Cy's (Ann), 4 Ann's, 5 Cy's.
  Only Cy found it (the 3-player rule: 4 points): Bo 4, Cy 4+1, Ann 0.
Scores: Ann 0, Bo 4, Cy 5. Places: Cy 1, Bo 2, Ann 3.
"""

from .factories import finished_game, story_round

ANN, BO, CY, DI = 0, 1, 2, 3

GAME_1 = [
    story_round(ANN, "A door to nowhere", [(BO, [CY]), (ANN, [BO]), (CY, [DI]), (DI, [])]),
    story_round(BO, "Teatime", [(BO, [ANN, CY, DI]), (ANN, []), (CY, []), (DI, [])]),
    story_round(CY, "Zugzwang", [(DI, [ANN, BO]), (CY, []), (ANN, [DI]), (BO, [])]),
    story_round(DI, "", [], skipped=True),
]

GAME_2 = [
    story_round(BO, "Lighthouse", [(ANN, []), (BO, [CY]), (CY, [ANN]), (ANN, []), (CY, [])]),
]


def two_games(users, *, first_at, second_at, deck=None, **kwargs):
    ann, bo, cy, di = users
    game_1 = finished_game([ann, bo, cy, di], GAME_1, finished_at=first_at, deck=deck, **kwargs)
    game_2 = finished_game([ann, bo, cy], GAME_2, finished_at=second_at, deck=deck)
    return game_1, game_2
