"""The app above the screens: its state, navigation, the page, and the Flet component's parts
(the photo picker, the settings a phone keeps, the replay job, the exports, the webcam)."""
