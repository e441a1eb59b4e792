// Placeholder removed once the server tests land.
