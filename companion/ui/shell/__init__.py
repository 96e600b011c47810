"""The app above the screens: its state, navigation, the page, the Flet component (``app``) and
its parts (the photo picker, the settings a phone keeps, the replay job, the exports, the webcam
and its camera, the typing kept across renders), and the web server around it (``server``)."""
