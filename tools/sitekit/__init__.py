"""The paperlens site's build (`sitekit.plugin`, the ProperDocs plugin) and its tools."""


class PageError(Exception):
    """An author's mistake in a page, or in a file the pages share (a figure script, the
    bibliography, ``nav``): the message says where it is and what to fix. It fails ``make
    site``; under ``make serve`` the page shows it (`sitekit.plugin`)."""
