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
    "coming": {
        "fr": "Bientôt : cet écran n'est pas encore construit. "
        "Le cribbage se joue déjà en ligne de commande (companion crib).",
        "en": "Coming: this screen is not built yet. "
        "Cribbage already works from the command line (companion crib).",
    },
    "coming_spit": {
        "fr": "Bientôt : cet écran n'est pas encore construit.",
        "en": "Coming: this screen is not built yet.",
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
    "night_variant": {"fr": "La soirée se joue en {variant} : choisissez cette variante",
                      "en": "Tonight's variant is {variant}: choose it to save"},
    "heist_saved": {"fr": "Manche n°{n} enregistrée", "en": "Heist #{n} saved"},
    "no_night": {
        "fr": "Aucune soirée en cours : démarrez-en une.",
        "en": "No game night open: start one.",
    },
    "start_night": {"fr": "Démarrer la soirée", "en": "Start the night"},
    "night_title": {"fr": "Soirée n°{id} — {variant}", "en": "Night #{id} — {variant}"},
    "score": {"fr": "Coffres {vaults} / 3 — Alarmes {alarms} / 3",
              "en": "Vaults {vaults} / 3 — Alarms {alarms} / 3"},
    "score_short": {"fr": "coffres {vaults}, alarmes {alarms}",
                    "en": "vaults {vaults}, alarms {alarms}"},
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
    # the heist replay
    "replay": {"fr": "Rejouer", "en": "Replay"},
    "replay_title": {"fr": "Rejeu de la manche {n}", "en": "Replay of heist {n}"},
    "replay_running": {"fr": "Calcul des chances : étape {done} sur {total}…",
                       "en": "Working out the odds: street {done} of {total}…"},
    "replay_close": {"fr": "Fermer le rejeu", "en": "Close the replay"},
    "replay_everyone": {"fr": "Toutes les mains connues", "en": "Every hand known"},
    "replay_own": {"fr": "Ses seules cartes", "en": "Own cards only"},
    "replay_help": {
        "fr": "Chance de chaque position finale (1 = la plus faible) à chaque étape.",
        "en": "Chance of each final position (1 = weakest) at each street.",
    },
    "replay_expected": {"fr": "attendue {expected}, la plus probable {best}",
                        "en": "expected {expected}, most likely {best}"},
    "replay_token": {"fr": "jeton final : {token}", "en": "final token: {token}"},
    "replay_mistakes": {"fr": "Plus grosses erreurs", "en": "Biggest mistakes"},
    "replay_no_mistake": {"fr": "Aucun jeton loin de sa position la plus probable.",
                          "en": "No token far from its most likely position."},
    "replay_no_tokens": {"fr": "Jetons non enregistrés : aucune erreur à montrer.",
                         "en": "No tokens recorded: no mistakes to show."},
    "replay_river_only": {
        "fr": "Seuls les jetons finaux sont enregistrés : les erreurs portent sur la river.",
        "en": "Only the final tokens are recorded: mistakes are judged at the river.",
    },
    "replay_gone": {"fr": "Cette manche n'existe plus (annulée ?).",
                    "en": "That heist is gone (undone?)."},
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
    "p_river2": {"fr": "La deuxième rivière a {n} cartes sur 5",
                 "en": "The second river has {n} of 5 cards"},
    "p_francois": {"fr": "{place} n'a pas donné de carte à François",
                   "en": "{place} gave no card to François"},
    "francois_card": {"fr": "Carte pour François", "en": "Card for François"},
    "shared_hand": {"fr": "Main partagée {pair}", "en": "Shared hand {pair}"},
    "p_two_rivers": {"fr": "{variant} ne se joue pas sur deux rivières",
                     "en": "{variant} is not played on two rivers"},
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
