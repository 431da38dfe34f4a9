// Bidirectional-override and other invisible control characters let scraped text pose as something
// else ("txt.exe" shown for "exe.txt"). Shown as visible markers instead, wherever scraped text goes.

const CONTROLS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

export function revealControls(text: string): string {
  return text.replace(CONTROLS, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`);
}
