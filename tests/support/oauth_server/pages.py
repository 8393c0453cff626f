"""The consent page: what a person sees on the authorization server before going back."""

from __future__ import annotations

from html import escape

TITLE = "Sign in to Magisterium (test)"


def consent_page(*, client_name: str, subject: str, scope: str, action: str) -> str:
    """A form posting back to `action` (the authorization endpoint with the original query)."""
    scopes = scope.split()
    scope_list = ""
    if scopes:
        items = "".join(f"<li>{escape(s)}</li>" for s in scopes)
        scope_list = (
            f'<p id="scopes-label">It asks for:</p><ul aria-labelledby="scopes-label">{items}</ul>'
        )
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{TITLE}</title>
</head>
<body>
<main>
<h1>{TITLE}</h1>
<p>Signed in as <span id="subject">{escape(subject)}</span>.</p>
<p><strong id="client-name">{escape(client_name)}</strong>
wants to use your Magisterium account.</p>
{scope_list}
<form method="post" action="{escape(action)}">
<button type="submit" name="decision" value="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form>
</main>
</body>
</html>
"""
