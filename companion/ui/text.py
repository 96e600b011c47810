"""Every word the app shows, in French (the default) and English."""

from __future__ import annotations

__all__ = ["LANGS", "t"]

LANGS = ("fr", "en")

_TEXT: dict[str, dict[str, str]] = {
    "app_title": {"fr": "Companion", "en": "Companion"},
    "nav_showdown": {"fr": "Abattage", "en": "Showdown"},
    "nav_night": {"fr": "Soirée", "en": "Game night"},
    "nav_history": {"fr": "Historique", "en": "History"},
    "nav_cribbage": {"fr": "Cribbage", "en": "Cribbage"},
    "nav_spit": {"fr": "Spit", "en": "Spit"},
    # the cribbage screen
    "crib_count": {"fr": "Compter un jeu", "en": "Count a show"},
    "crib_hand": {"fr": "Main (4 cartes)", "en": "Hand (4 cards)"},
    "crib_starter": {"fr": "Carte de départ", "en": "Starter"},
    "crib_is_crib": {"fr": "C'est le crib", "en": "This is the crib"},
    "crib_total": {"fr": "Total : {total}", "en": "Total: {total}"},
    "crib_parts": {
        "fr": "quinzes {fifteens}, paires {pairs}, suites {runs}, couleur {flush}, nobs {nobs}",
        "en": "fifteens {fifteens}, pairs {pairs}, runs {runs}, flush {flush}, nobs {nobs}",
    },
    "crib_nineteen": {"fr": "Rien : une main « dix-neuf »", "en": "Nothing: a “nineteen” hand"},
    "crib_item": {"fr": "{label} : {points}", "en": "{label}: {points}"},
    "crib_count_to": {"fr": "Marquer pour {name}", "en": "Peg it for {name}"},
    "crib_read": {
        "fr": "Main et carte de départ lues : vérifiez-les.",
        "en": "Hand and starter read: check them.",
    },
    "crib_read_unsure": {
        "fr": "Main et carte de départ lues : vérifiez surtout {cards}.",
        "en": "Hand and starter read: check {cards} above all.",
    },
    "crib_pegging": {"fr": "Compter un pegging", "en": "Count a pegging play"},
    "crib_peg_cards": {"fr": "Cartes jouées, dans l'ordre", "en": "Cards played, in order"},
    "crib_peg_end": {"fr": "Fin du compte", "en": "End of the count"},
    "crib_end_none": {"fr": "on continue", "en": "play goes on"},
    "crib_end_go": {"fr": "go (+1)", "en": "go (+1)"},
    "crib_end_last_card": {"fr": "dernière carte (+1)", "en": "last card (+1)"},
    "crib_peg_total": {
        "fr": "{points} pour {card} (compte {count})",
        "en": "{points} for {card} (count {count})",
    },
    "crib_peg_none": {
        "fr": "Rien pour {card} (compte {count})",
        "en": "Nothing for {card} (count {count})",
    },
    "crib_board": {"fr": "Planche à 121", "en": "Board to 121"},
    "crib_players": {
        "fr": "Les deux joueurs (séparés par une virgule)",
        "en": "The two players (comma separated)",
    },
    "crib_score": {"fr": "{name} : {score}", "en": "{name}: {score}"},
    "crib_peg": {"fr": "Pegging", "en": "Pegging"},
    "crib_show_points": {"fr": "Main", "en": "Hand"},
    "crib_crib_points": {"fr": "Crib", "en": "Crib"},
    "crib_heels": {"fr": "Valet retourné +2", "en": "His heels +2"},
    "crib_wins": {"fr": "{name} gagne ({score}) !", "en": "{name} wins ({score})!"},
    "crib_undo": {"fr": "Annuler le dernier point", "en": "Undo the last score"},
    "crib_undone": {
        "fr": "{name} : {points} points annulés",
        "en": "{name}: {points} points undone",
    },
    "crib_nothing_to_undo": {"fr": "Rien à annuler.", "en": "Nothing to undo."},
    "crib_new_game": {"fr": "Nouvelle partie", "en": "New game"},
    "crib_log": {"fr": "Points marqués", "en": "Scores pegged"},
    "crib_kind_show": {"fr": "main", "en": "hand"},
    "crib_kind_peg": {"fr": "pegging", "en": "pegging"},
    "crib_kind_crib": {"fr": "crib", "en": "crib"},
    "crib_kind_heels": {"fr": "valet retourné", "en": "his heels"},
    "crib_entry": {
        "fr": "{name} +{points} ({kind}), total {total}",
        "en": "{name} +{points} ({kind}), total {total}",
    },
    "crib_advice": {"fr": "Conseil d'écart", "en": "Discard advice"},
    "crib_deal": {"fr": "Vos 6 cartes", "en": "Your 6 cards"},
    "crib_dealer": {"fr": "Je donne (mon crib)", "en": "I deal (my crib)"},
    "crib_by_net": {
        "fr": "Avec le crib ({sign} le crib espéré)",
        "en": "Counting the crib ({sign} the expected crib)",
    },
    "crib_plus": {"fr": "plus", "en": "plus"},
    "crib_minus": {"fr": "moins", "en": "minus"},
    "crib_by_hand": {
        "fr": "Main seule (sur 46 cartes de départ)",
        "en": "Hand alone (over 46 starters)",
    },
    "crib_option": {
        "fr": "écarter {discard}, garder {keep} : main {hand} {op} crib {crib} = {net}",
        "en": "discard {discard}, keep {keep}: hand {hand} {op} crib {crib} = {net}",
    },
    "language": {"fr": "English", "en": "Français"},
    "variant": {"fr": "Variante", "en": "Variant"},
    "ranking": {"fr": "Classement", "en": "Ranking"},
    "straights": {"fr": "Suites", "en": "Straights"},
    "decks": {"fr": "Paquets", "en": "Decks"},
    "preset_name": {"fr": "Nom du réglage", "en": "Preset name"},
    "preset_save": {"fr": "Enregistrer le réglage", "en": "Save preset"},
    "preset_saved": {"fr": "Réglage « {name} » enregistré", "en": "Preset “{name}” saved"},
    "preset_applied": {"fr": "Réglage « {name} » appliqué", "en": "Preset “{name}” applied"},
    "players": {"fr": "Joueurs (séparés par des virgules)", "en": "Players (comma separated)"},
    "player_default": {"fr": "Joueur {n}", "en": "Player {n}"},
    "river": {"fr": "Rivière", "en": "River"},
    "river2": {"fr": "Deuxième rivière", "en": "Second river"},
    "two_rivers": {"fr": "Deux rivières", "en": "Two rivers"},
    "cards_of": {"fr": "Cartes : {place}", "en": "Cards: {place}"},
    "photo": {"fr": "Photo de la table", "en": "Photo of the table"},
    "webcam": {"fr": "Webcam de l'ordinateur", "en": "Computer webcam"},
    "capture": {"fr": "Capturer", "en": "Capture"},
    "webcam_none": {
        "fr": "Aucune webcam sur l'ordinateur qui fait tourner l'app.",
        "en": "No webcam on the computer running the app.",
    },
    "vision_off": {
        "fr": "Lecture des photos indisponible ({reason}) : tapez les cartes, "
        "tout le reste marche.",
        "en": "Photo reading unavailable ({reason}): type the cards, everything else works.",
    },
    "read_done": {
        "fr": "{n} cartes lues (regroupement sûr à {conf} %) : vérifiez-les.",
        "en": "{n} cards read (grouping {conf}% sure): check them.",
    },
    "read_none": {
        "fr": "Aucune carte lue sur la photo : tapez-les.",
        "en": "No card read on the photo: type them.",
    },
    "photo_kept": {"fr": "Photo gardée pour la manche.", "en": "Photo kept for the heist."},
    "upload_failed": {"fr": "Envoi refusé : {error}", "en": "Upload refused: {error}"},
    "upload_too_big": {
        "fr": "Photo trop lourde ({size} Mo, max {limit} Mo).",
        "en": "Photo too large ({size} MB, max {limit} MB).",
    },
    "selected": {"fr": "Carte choisie : {card}", "en": "Selected card: {card}"},
    "replace_with": {"fr": "Remplacer par", "en": "Replace with"},
    "move_to": {"fr": "Déplacer vers", "en": "Move to"},
    "suit_s": {"fr": "pique (s)", "en": "spades (s)"},
    "suit_h": {"fr": "cœur (h)", "en": "hearts (h)"},
    "suit_d": {"fr": "carreau (d)", "en": "diamonds (d)"},
    "suit_c": {"fr": "trèfle (c)", "en": "clubs (c)"},
    "remove": {"fr": "Retirer", "en": "Remove"},
    "add_card": {"fr": "Ajouter une carte", "en": "Add a card"},
    "add_to": {"fr": "Ajouter à {place}", "en": "Add to {place}"},
    "problems": {"fr": "À corriger avant le verdict", "en": "Fix before the verdict"},
    "tokens": {"fr": "Jetons rouges", "en": "Red tokens"},
    "tokens_help": {
        "fr": "Touchez les mains dans l'ordre des jetons (1 = la plus faible annoncée).",
        "en": "Tap the hands in red-token order (1 = claimed weakest).",
    },
    "tokens_text": {
        "fr": "Ou tapez les numéros, main par main",
        "en": "Or type the numbers, hand by hand",
    },
    "tokens_clear": {"fr": "Effacer les jetons", "en": "Clear tokens"},
    "vault_opens": {"fr": "LE COFFRE S'OUVRE", "en": "VAULT OPENS"},
    "alarm": {"fr": "ALARME", "en": "ALARM"},
    "best_five": {"fr": "Meilleures cinq", "en": "Best five"},
    "correct_order": {"fr": "Ordre correct", "en": "Correct order"},
    "save_heist": {"fr": "Enregistrer la manche", "en": "Save the heist"},
    "new_table": {"fr": "Nouvelle table", "en": "New table"},
    "night_variant": {
        "fr": "La soirée se joue en {variant} : choisissez cette variante",
        "en": "Tonight's variant is {variant}: choose it to save",
    },
    "heist_saved": {"fr": "Manche n°{n} enregistrée", "en": "Heist #{n} saved"},
    "no_night": {
        "fr": "Aucune soirée en cours : démarrez-en une.",
        "en": "No game night open: start one.",
    },
    "start_night": {"fr": "Démarrer la soirée", "en": "Start the night"},
    "night_title": {"fr": "Soirée n°{id} — {variant}", "en": "Night #{id} — {variant}"},
    "score": {
        "fr": "Coffres {vaults} / 3 — Alarmes {alarms} / 3",
        "en": "Vaults {vaults} / 3 — Alarms {alarms} / 3",
    },
    "score_short": {
        "fr": "coffres {vaults}, alarmes {alarms}",
        "en": "vaults {vaults}, alarms {alarms}",
    },
    "won": {"fr": "Soirée gagnée !", "en": "Night won!"},
    "lost": {"fr": "Soirée perdue.", "en": "Night lost."},
    "abandoned": {"fr": "Soirée abandonnée.", "en": "Night abandoned."},
    "undo": {"fr": "Annuler la dernière manche", "en": "Undo the last heist"},
    "undone": {"fr": "Manche n°{n} annulée", "en": "Heist #{n} undone"},
    "close_night": {"fr": "Clore la soirée", "en": "Close the night"},
    "heist_line": {"fr": "Manche {n} : {verdict}", "en": "Heist {n}: {verdict}"},
    "vault": {"fr": "coffre", "en": "vault"},
    "alarm_word": {"fr": "alarme", "en": "alarm"},
    "no_heist": {"fr": "Aucune manche encore.", "en": "No heist yet."},
    "night_crib": {"fr": "Cribbage", "en": "Cribbage"},
    "night_crib_none": {
        "fr": "Aucune partie de cribbage ce soir.",
        "en": "No cribbage game tonight.",
    },
    "night_crib_score": {"fr": "{a} {sa} – {b} {sb}", "en": "{a} {sa} – {b} {sb}"},
    "night_crib_won": {"fr": "{name} a gagné", "en": "{name} won"},
    "night_crib_playing": {"fr": "en cours", "en": "in progress"},
    "night_crib_resume": {"fr": "Reprendre", "en": "Resume"},
    # the heist replay
    "replay": {"fr": "Rejouer", "en": "Replay"},
    "replay_title": {"fr": "Rejeu de la manche {n}", "en": "Replay of heist {n}"},
    "replay_running": {
        "fr": "Calcul des chances : étape {done} sur {total}…",
        "en": "Working out the odds: street {done} of {total}…",
    },
    "replay_close": {"fr": "Fermer le rejeu", "en": "Close the replay"},
    "replay_everyone": {"fr": "Toutes les mains connues", "en": "Every hand known"},
    "replay_own": {"fr": "Ses seules cartes", "en": "Own cards only"},
    "replay_help": {
        "fr": "Chance de chaque position finale (1 = la plus faible) à chaque étape.",
        "en": "Chance of each final position (1 = weakest) at each street.",
    },
    "replay_expected": {
        "fr": "attendue {expected}, la plus probable {best}",
        "en": "expected {expected}, most likely {best}",
    },
    "replay_token": {"fr": "jeton final : {token}", "en": "final token: {token}"},
    "replay_mistakes": {"fr": "Plus grosses erreurs", "en": "Biggest mistakes"},
    "replay_no_mistake": {
        "fr": "Aucun jeton loin de sa position la plus probable.",
        "en": "No token far from its most likely position.",
    },
    "replay_no_tokens": {
        "fr": "Jetons non enregistrés : aucune erreur à montrer.",
        "en": "No tokens recorded: no mistakes to show.",
    },
    "replay_river_only": {
        "fr": "Seuls les jetons finaux sont enregistrés : les erreurs portent sur la river.",
        "en": "Only the final tokens are recorded: mistakes are judged at the river.",
    },
    "replay_gone": {
        "fr": "Cette manche n'existe plus (annulée ?).",
        "en": "That heist is gone (undone?).",
    },
    "history": {"fr": "Soirées passées", "en": "Past nights"},
    "stats": {"fr": "Statistiques", "en": "Stats"},
    "overall": {
        "fr": "Gagnées {won}, perdues {lost}, abandonnées {abandoned} — victoire {rate}",
        "en": "Won {won}, lost {lost}, abandoned {abandoned} — win rate {rate}",
    },
    "by_variant": {"fr": "Par variante", "en": "By variant"},
    "by_group": {"fr": "Par groupe", "en": "By group"},
    "streaks": {
        "fr": "Séries : {nw} soirées gagnées, {nl} perdues ; {hv} coffres, {ha} alarmes d'affilée",
        "en": "Streaks: {nw} nights won, {nl} lost; {hv} vaults, {ha} alarms in a row",
    },
    "hardest": {"fr": "Variantes les plus dures", "en": "Hardest variants"},
    "export_json": {"fr": "Exporter tout (JSON)", "en": "Export all (JSON)"},
    "export_csv": {"fr": "Exporter tout (CSV)", "en": "Export all (CSV)"},
    "export_night": {"fr": "Exporter la soirée (JSON)", "en": "Export the night (JSON)"},
    "exported": {"fr": "Exporté : {path}", "en": "Exported: {path}"},
    "no_history": {"fr": "Aucune soirée pour l'instant.", "en": "No game night yet."},
    # the Spit screen
    "spit_title": {"fr": "Arbitre de Spit", "en": "Spit referee"},
    "spit_rules": {"fr": "Règles", "en": "Rules"},
    "spit_v_classic": {"fr": "classique", "en": "classic"},
    "spit_v_four-stocks": {"fr": "quatre réserves", "en": "four stocks"},
    "spit_v_alternate": {"fr": "couleurs alternées", "en": "alternate colours"},
    "spit_v_chooser": {"fr": "le videur choisit son tas", "en": "emptier chooses a pile"},
    "spit_v_speed": {"fr": "Speed", "en": "Speed"},
    "spit_live": {"fr": "Tas en jeu", "en": "Piles in play"},
    "spit_live_both": {"fr": "les deux", "en": "both"},
    "spit_live_one": {"fr": "tas {n} seul", "en": "pile {n} only"},
    "spit_photo_help": {
        "fr": "Photo prise du côté du joueur 1 : réserves du joueur 2 en haut, les deux tas au "
        "milieu (tas 1 à gauche), réserves du joueur 1 en bas.",
        "en": "Photo taken from player 1's side: player 2's stocks at the top, the two piles in "
        "the middle (pile 1 on the left), player 1's stocks at the bottom.",
    },
    "spit_tokens_help": {
        "fr": "7h : carte visible ; 7h/3 : sur une pile de 3 ; ? : face cachée ; - : place vide. "
        "Séparez par des espaces, de gauche à droite.",
        "en": "7h: a face-up card; 7h/3: on a pile of 3; ?: face down; -: an empty space. "
        "Separate with spaces, left to right.",
    },
    "spit_pile": {"fr": "Tas {n}", "en": "Pile {n}"},  # its top card
    "spit_player": {"fr": "Joueur {n}", "en": "Player {n}"},
    "spit_stocks": {"fr": "Réserves du joueur {n}", "en": "Player {n}'s stocks"},
    "spit_hand": {"fr": "Main du joueur {n}", "en": "Player {n}'s hand"},
    "spit_left": {"fr": "À cracher", "en": "Spit left"},
    "spit_draw": {"fr": "Pioche", "en": "Draw"},
    "spit_side": {"fr": "Côté", "en": "Side"},
    "spit_wait": {
        "fr": "Tapez le dessus des deux tas (ou prenez une photo) pour l'arbitrage.",
        "en": "Type the tops of both piles (or take a photo) for a ruling.",
    },
    "spit_plays": {"fr": "Coups permis", "en": "Legal plays"},
    "spit_nothing": {"fr": "rien à jouer", "en": "nothing to play"},
    "spit_dispute": {"fr": "Coup contesté", "en": "Disputed move"},
    "spit_dispute_help": {
        "fr": "p1 8d -> tas 1 ; p2 9c -> réserve 4 ; p1 retourne 3 ; crache ; p1 prend 2",
        "en": "p1 8d -> pile 1; p2 9c -> stock 4; p1 turn 3; spit; p1 takes 2",
    },
    "spit_check": {"fr": "Vérifier", "en": "Check"},
    "spit_clear_move": {"fr": "Effacer le coup", "en": "Clear the move"},
    "spit_legal": {"fr": "PERMIS", "en": "LEGAL"},
    "spit_illegal": {"fr": "INTERDIT", "en": "ILLEGAL"},
    "spit_read": {
        "fr": "{n} cartes lues : vérifiez-les, ajoutez ? pour chaque réserve face cachée et "
        "dites les cartes à cracher.",
        "en": "{n} cards read: check them, add ? for each face-down stock and say the spit "
        "cards left.",
    },
    "spit_read_unsure": {
        "fr": "{n} cartes lues : vérifiez surtout {check}, ajoutez ? pour chaque réserve face "
        "cachée et dites les cartes à cracher.",
        "en": "{n} cards read: check {check} above all, add ? for each face-down stock and say "
        "the spit cards left.",
    },
    "spit_photo_read": {
        "fr": "Lu (joueur 2 / tas / joueur 1) : {cards}",
        "en": "Read (player 2 / piles / player 1): {cards}",
    },
    "bug": {
        "fr": "Erreur interne (un bug, détaillé dans le journal du serveur) : {error}",
        "en": "Internal error (a bug, detailed in the server log): {error}",
    },
    # problems found before a verdict
    "p_bad_card": {
        "fr": "« {token} » n'est pas une carte ({place})",
        "en": "“{token}” is not a card ({place})",
    },
    "p_duplicate": {
        "fr": "{card} apparaît {count} fois ({places}) avec {decks} paquet(s)",
        "en": "{card} appears {count} times ({places}) with {decks} deck(s)",
    },
    "p_river": {"fr": "La rivière a {n} cartes sur 5", "en": "The river has {n} of 5 cards"},
    "p_river2": {
        "fr": "La deuxième rivière a {n} cartes sur 5",
        "en": "The second river has {n} of 5 cards",
    },
    "p_francois": {
        "fr": "{place} n'a pas donné de carte à François",
        "en": "{place} gave no card to François",
    },
    "francois_card": {"fr": "Carte pour François", "en": "Card for François"},
    "shared_hand": {"fr": "Main partagée {pair}", "en": "Shared hand {pair}"},
    "p_two_rivers": {
        "fr": "{variant} ne se joue pas sur deux rivières",
        "en": "{variant} is not played on two rivers",
    },
    "p_hand": {"fr": "{place} a {n} cartes sur {want}", "en": "{place} has {n} of {want} cards"},
    "p_hand_empty": {"fr": "{place} n'a aucune carte", "en": "{place} has no card"},
    "p_players": {
        "fr": "{variant} se joue de {lo} à {hi} joueurs, pas {n}",
        "en": "{variant} is played by {lo} to {hi} players, not {n}",
    },
    "p_names": {
        "fr": "Noms de joueurs vides, répétés ou avec / ou +",
        "en": "Player names empty, repeated or holding / or +",
    },
}


def t(key: str, lang: str, **params: object) -> str:
    """The text ``key`` in ``lang`` (French when unknown), filled with ``params``."""
    entry = _TEXT[key]
    return entry.get(lang, entry["fr"]).format(**params)
