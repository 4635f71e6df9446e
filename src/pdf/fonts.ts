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
 * Their tables are parsed once, on the first export: pdfkit takes a parsed font as well as its bytes, and would
 * otherwise parse the bytes again for each document (and for each table cell, which restores the font by its source).
 */
interface ParsedFont {
  bytes: Buffer;
  font: fontkit.Font;
}
let parsed: Record<FontName, ParsedFont> | undefined;
function parsedFonts(): Record<FontName, ParsedFont> {
  if (!parsed) {
    const require = createRequire(import.meta.url);
    const open = (file: string) => {
      const bytes = readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`));
      return { bytes, font: fontkit.create(bytes) as fontkit.Font };
    };
    parsed = Object.fromEntries(Object.entries(FONT_FILES).map(([name, file]) => [name, open(file)])) as Record<FontName, ParsedFont>;
  }
  return parsed;
}

/** fontkit's decoded tables of a font, which its font objects keep privately (pdfkit reads them too). */
type WithTables = { _tables: object };

/**
 * The fonts of one PDF: objects of its own over the tables parsed once (as fontkit's getVariation makes them), each
 * PDF embedding only the glyphs it uses. Not shared: fontkit keeps every glyph it makes with the characters it was made
 * for, and the subset of a PDF makes the parts of a composed glyph (the Y of Ŷ, the y of у) with none; shared, such a
 * glyph would reach later PDFs without its character (an empty ToUnicode entry: the letter lost to copying and
 * search), and the bytes of an export would depend on the exports made before it.
 */
export function documentFonts(): Record<FontName, fontkit.Font> {
  return Object.fromEntries(
    Object.entries(parsedFonts()).map(([name, { bytes, font }]) => {
      const own = fontkit.create(bytes) as fontkit.Font;
      (own as unknown as WithTables)._tables = (font as unknown as WithTables)._tables;
      return [name, own];
    }),
  ) as Record<FontName, fontkit.Font>;
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
  // Only the character map is read: no glyph is made.
  const font = parsedFonts()[family === 'mono' ? FONT.mono : FONT.regular].font;
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
