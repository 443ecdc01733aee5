// Where the console's page-wide notices go ("Can't reach the server"): the top of the page's
// content, below the header (ConsoleShell renders the slot, UnreachableWatch portals into it).
// A module of its own so that neither imports the other.

/** The id of the element the notices are rendered into. */
export const NOTICE_SLOT_ID = "console-notices";

/**
 * The CSS variable holding the height the notices take at the top of the page, while they show:
 * what the page scrolls focus and in-page links below (globals.css, scroll-padding-top).
 */
export const NOTICE_HEIGHT_VARIABLE = "--console-notice-height";
