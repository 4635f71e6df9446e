// The fonts of every PDF, DejaVu Sans and Sans Mono (dejavu-fonts-ttf), and text as they can show it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/** The fonts, by the name each PDF registers them under (dejavu-fonts-ttf's files). */
const FONT_FILES = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
  boldItalic: 'DejaVuSans-BoldOblique.ttf',
  mono: 'DejaVuSansMono.ttf',
  monoBold: 'DejaVuSansMono-Bold.ttf',
  monoItalic: 'DejaVuSansMono-Oblique.ttf',
  monoBoldItalic: 'DejaVuSansMono-BoldOblique.ttf',
} as const;
type FontName = keyof typeof FONT_FILES;
export const FONT = Object.fromEntries(Object.keys(FONT_FILES).map((name) => [name, name])) as { [Name in FontName]: Name };

/**
 * DejaVu Sans and Sans Mono cover Latin, Greek, Cyrillic and many symbols (a font with CJK would weigh tens of MB).
 * Parsed once, on the first export, and shared by every PDF: pdfkit takes a parsed font as well as its bytes, and
 * would otherwise parse the bytes again for each document (and for each table cell, which restores the font by its
 * source). Each PDF embeds only the glyphs it uses.
 */
let parsed: Record<FontName, fontkit.Font> | undefined;
export function fonts(): Record<FontName, fontkit.Font> {
  if (!parsed) {
    const require = createRequire(import.meta.url);
    const open = (file: string) => fontkit.create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`))) as fontkit.Font;
    parsed = Object.fromEntries(Object.entries(FONT_FILES).map(([name, file]) => [name, open(file)])) as Record<FontName, fontkit.Font>;
  }
  return parsed;
}

/** Left out: emoji and what joins or varies them, zero-width characters, carriage returns. */
const EMOJI = /^(\p{Extended_Pictographic}|\p{Emoji_Modifier})$/u;
const INVISIBLE = new Set(['\u200b', '\u200c', '\u200d', '\u2060', '\ufe0e', '\ufe0f', '\r']);
const MARKS = /\p{M}/gu;

/**
 * Text as the family's font can show it: a character it lacks becomes its unaccented letter when the font has that,
 * else "?"; emoji and invisible characters are left out, a tab is four spaces.
 */
export function printable(text: string, family: 'sans' | 'mono' = 'sans'): string {
  const font = fonts()[family === 'mono' ? FONT.mono : FONT.regular];
  const shown = (char: string) => char === '\n' || (char >= ' ' && font.hasGlyphForCodePoint(char.codePointAt(0)!));
  let out = '';
  for (const char of text.normalize('NFC')) {
    if (shown(char)) out += char;
    else if (char === '\t') out += '    ';
    else if (!INVISIBLE.has(char) && !EMOJI.test(char)) {
      const base = char.normalize('NFKD').replace(MARKS, '');
      out += base && [...base].every(shown) ? base : '?';
    }
  }
  return out;
}
