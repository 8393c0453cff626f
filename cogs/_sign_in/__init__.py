"""What /account link and /server link share: offering Sign in with Magisterium in Discord."""
