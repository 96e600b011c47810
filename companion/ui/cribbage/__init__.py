"""The Cribbage screen: a show counted, a two-player board to 121, discard advice."""
