"""The Spit screen: the referee of a typed or photographed position."""
