import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A relative link of a markdown file: where it is and what it names. */
export interface MarkdownLink {
  file: string;
  line: number;
  target: string;
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): Array<{ line: number; text: string }> {
  let fenced = false;
  return text.split('\n').flatMap((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ line: index + 1, text: line }];
  });
}

/** The anchor GitHub gives a heading: lower case, punctuation and symbols dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a markdown file offers, duplicates numbered as GitHub numbers them (`-1`, `-2`). */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = headingSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** The relative links (`[text](target)`, not URLs) of a markdown file, inline code aside. */
export function relativeLinks(root: string, file: string): MarkdownLink[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return proseLines(text).flatMap(({ line, text: prose }) => {
    const withoutCode = prose.replace(/`[^`]*`/g, '');
    return [...withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ file, line, target }));
  });
}

/** What is wrong with a link: its file is missing, or its `#anchor` names no heading there. */
export function brokenReason(root: string, link: MarkdownLink): string | undefined {
  const [pathPart, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const target =
    pathPart === '' ? path.join(root, link.file) : path.resolve(root, path.dirname(link.file), decodeURI(pathPart));
  if (!existsSync(target)) return `no file ${path.relative(root, target)}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(target).isDirectory() || !target.endsWith('.md')) return `#${anchor} on a file that is not markdown`;
  const anchors = anchorsOf(readFileSync(target, 'utf8'));
  return anchors.has(decodeURIComponent(anchor))
    ? undefined
    : `no heading #${anchor} in ${path.relative(root, target)}`;
}
