import { error, warning, type Finding } from '../../validation/finding';
import { FindingSink } from '../../validation/finding-sink';
import { floatView, NAV_DIRECTIONS, NAV_LADDER_AREAS, NAV_LADDER_DIRECTIONS, NAV_LADDER_WORDS, NavCorner as C, placeName, type NavDocument } from './nav-document';
import { navGates } from './nav-layout';

/** Attribute bits of the GoldSrc bots (CROUCH, JUMP, PRECISE, NO_JUMP). */
const GOLDSRC_ATTRIBUTES = 0x0f;
/** NavAttributeType bits 0x1–0x8000 plus the custom range 0x10000–0x04000000 games own. */
const KNOWN_ATTRIBUTES_V13 = 0x0000ffff | 0x07ff0000;
/** FUNC_COST, HAS_ELEVATOR, NAV_BLOCKER: runtime state that leaks into saved files. */
const RUNTIME_ATTRIBUTES = 0xe0000000;
/** TF_NAV_PERSISTENT_ATTRIBUTES: the only TF bits the game saves (spec §6). */
const TF_PERSISTENT_ATTRIBUTES = 0x0000f800 | 0x001f0000 | 0x00600000 | 0x06000000 | 0x70000000;
/** IN_COVER, GOOD_SNIPER_SPOT, IDEAL_SNIPER_SPOT, EXPOSED. */
const HIDING_SPOT_FLAGS = 0x0f;
/** The engine reads place names into a 256-byte buffer. */
const PLACE_NAME_BUFFER = 256;

const hex = (v: number) => `0x${(v >>> 0).toString(16).toUpperCase()}`;

/**
 * Checks what the engine relies on when it loads a `.nav` file (spec §3–§9, §14), with the
 * severity the game gives it: an *error* is what the engine refuses (no areas), crashes on
 * (a connection to an absent area is dereferenced in CNavArea::PostLoad) or cannot path
 * through as intended (ladders and duplicate IDs that resolve to nothing or to the wrong
 * area); what it loads and tolerates (an absent visibility anchor, corners out of order,
 * zero-size areas, place indices past the directory, trailing bytes) is a *warning* that
 * says why. Each rule's comment names the loader code its severity rests on: the Source
 * SDK 2013 nav_file.cpp / nav_ladder.cpp (CNavMesh::Load, CNavArea::Load and PostLoad,
 * CNavLadder::Load, PlaceDirectory) and, for versions 1–5, the GoldSrc CS bot's nav_file.cpp.
 */
export function validateNav(doc: NavDocument): Finding[] {
  const out = new FindingSink();
  const A = doc.areas;
  const n = A.count;
  const area = (a: number) => ({ kind: 'area' as const, id: A.id[a]! });

  // CNavMesh::Load returns NAV_INVALID_FILE when the area count is 0.
  if (n === 0) out.push(error('nav.areas.empty', 'the file has no areas; the engine refuses an empty nav mesh'));

  const indexOfArea = new Map<number, number>();
  for (let a = 0; a < n; a++) {
    const id = A.id[a]!;
    // GetNavAreaByID(0) finds nothing, so the area cannot be reached by any reference;
    // two areas with one ID resolve every reference to the same one of them.
    if (id === 0) out.push(error('nav.area.zero-id', `area #${a} has ID 0, which every reference reads as "no area"`, area(a)));
    const prev = indexOfArea.get(id);
    if (prev !== undefined) out.push(error('nav.area.duplicate-id', `area ${id} is defined twice (records #${prev} and #${a})`, area(a)));
    else indexOfArea.set(id, a);
  }
  const areaExists = (id: number) => indexOfArea.has(id);

  const ladderIds = new Set<number>();
  for (let i = 0; i < doc.ladders.count; i++) {
    const id = doc.ladders.id[i]!;
    // GetLadderByID finds the first of them: links to the other reach the wrong ladder.
    if (ladderIds.has(id)) out.push(error('nav.ladder.duplicate-id', `ladder ${id} is defined twice`, { kind: 'ladder', id }));
    ladderIds.add(id);
  }

  // Version 1 stores hiding spots as positions only: the engine numbers them as it loads.
  const spotsHaveIds = navGates.hidingSpotObjects(doc.version);
  const hidingSpotIds = new Set<number>();
  for (let k = 0; spotsHaveIds && k < A.hidingSpotId.length; k++) {
    const id = A.hidingSpotId[k]!;
    if (hidingSpotIds.has(id)) {
      const owner = ownerOf(A.hidingSpotStart, k);
      // Loaded as is; GetHidingSpotByID then finds the first spot of that ID for encounter spots.
      out.push(warning('nav.hiding-spot.duplicate-id', `area ${A.id[owner]}: hiding spot ${id} has the ID of another hiding spot (encounter spots naming it find the first one)`, area(owner)));
    }
    hidingSpotIds.add(id);
  }

  validatePlaces(doc, out);
  validateAttributes(doc, out);

  const approachDiscarded = doc.version >= 6 && navGates.approachInBase(doc.version);
  const c = floatView(A.corners);
  for (let a = 0; a < n; a++) {
    const id = A.id[a]!;
    const k = a * 8;
    let finite = true;
    for (let i = 0; i < 8; i++) if (!Number.isFinite(c[k + i]!)) finite = false;
    if (!finite) {
      // A NaN or infinite extent feeds AllocateGrid and every point-in-area test; the
      // engine has no check for it, so the mesh cannot be used as intended.
      out.push(error('nav.area.corner-not-finite', `area ${id}: a corner coordinate is not a finite number`, area(a)));
    } else if (c[k + C.NwX]! > c[k + C.SeX]! || c[k + C.NwY]! > c[k + C.SeY]!) {
      // CNavArea::Load loads it, only warning "Degenerate Navigation Area" (its inverse
      // extents are set to 0); the GoldSrc loader likewise only warns when lo ≥ hi.
      out.push(
        warning(
          'nav.area.corners-unordered',
          `area ${id}: the north-west corner (${c[k + C.NwX]}, ${c[k + C.NwY]}) has a larger x or y than the south-east corner (${c[k + C.SeX]}, ${c[k + C.SeY]}); the engine loads it, warning "Degenerate Navigation Area"`,
          area(a),
        ),
      );
    } else if (c[k + C.NwX] === c[k + C.SeX] || c[k + C.NwY] === c[k + C.SeY]) {
      // Same loader branch as above: loaded with a warning.
      out.push(warning('nav.area.degenerate', `area ${id}: zero width or depth (the engine loads it, warning "Degenerate Navigation Area")`, area(a)));
    }

    for (let d = 0; d < 4; d++) {
      const s = A.connectionStart[a * 4 + d]!;
      const e = A.connectionStart[a * 4 + d + 1]!;
      for (let i = s; i < e; i++) {
        const t = A.connectionTarget[i]!;
        // CNavArea::Load drops self-links; PostLoad dereferences the area of every other
        // connection (connect->area->GetCenter()) even when the ID named no area: a crash.
        if (t === id) out.push(warning('nav.connection.self', `area ${id}: ${NAV_DIRECTIONS[d]} connection to itself (dropped on load)`, area(a)));
        else if (!areaExists(t)) out.push(error('nav.connection.missing-area', `area ${id}: ${NAV_DIRECTIONS[d]} connection to area ${t}, which does not exist`, area(a)));
        for (let j = s; j < i; j++) {
          if (A.connectionTarget[j] === t) {
            // Loaded twice into the list; pathing only tries the same neighbour again.
            out.push(warning('nav.connection.duplicate', `area ${id}: ${NAV_DIRECTIONS[d]} connection to area ${t} is listed twice`, area(a)));
            break;
          }
        }
      }
    }

    for (let k2 = A.hidingSpotStart[a]!; k2 < A.hidingSpotStart[a + 1]!; k2++) {
      const flags = A.hidingSpotFlags[k2]!;
      // Flags are tested bit by bit (HidingSpot::HasGoodCover…): unknown bits are never read.
      if (flags & ~HIDING_SPOT_FLAGS) out.push(warning('nav.hiding-spot.unknown-flags', `area ${id}: hiding spot ${A.hidingSpotId[k2]} has unknown flag bits ${hex(flags & ~HIDING_SPOT_FLAGS)}`, area(a)));
    }

    for (let k2 = A.approachStart[a]!; k2 < A.approachStart[a + 1]!; k2++) {
      for (const [role, ref] of [
        ['here', A.approachHere[k2]!],
        ['prev', A.approachPrev[k2]!],
        ['next', A.approachNext[k2]!],
      ] as const) {
        if (ref === 0 || areaExists(ref)) continue;
        // The GoldSrc bots (v ≤ 5) and the CS approach data (v ≥ 15) resolve these and
        // report "Corrupt navigation data. Missing Approach Area"; the SDK's loader reads
        // and discards ("eats") the approach list of versions 6–14, so it never looks.
        if (approachDiscarded) out.push(warning('nav.approach.missing-area', `area ${id}: approach entry (${role}) names area ${ref}, which does not exist (the Source loader discards approach lists before version 15)`, area(a)));
        else out.push(error('nav.approach.missing-area', `area ${id}: approach entry (${role}) names area ${ref}, which does not exist`, area(a)));
      }
    }

    for (let p = A.encounterStart[a]!; p < A.encounterStart[a + 1]!; p++) {
      const from = A.encounterFrom[p]!;
      const to = A.encounterTo[p]!;
      // Before v3 the loaders read and discard encounter paths ("old data, read and discard").
      if (!navGates.encounterPaths(doc.version)) continue;
      // PostLoad reports "Corrupt navigation data. Missing "from"/"to" Navigation Area" and
      // keeps the path with a null area, which the bots' encounter lookups then use.
      if (!areaExists(from)) out.push(error('nav.encounter.missing-area', `area ${id}: encounter path from area ${from}, which does not exist`, area(a)));
      if (!areaExists(to)) out.push(error('nav.encounter.missing-area', `area ${id}: encounter path to area ${to}, which does not exist`, area(a)));
      // Used only to place the path's portal points (ComputePortal) for the bots' encounter
      // logic, never to move between areas: a bad value misplaces a sight line, no more.
      if (A.encounterFromDir[p]! > 3 || A.encounterToDir[p]! > 3) {
        out.push(warning('nav.encounter.bad-direction', `area ${id}: encounter path ${from}→${to} has a direction outside north/east/south/west`, area(a)));
      }
      for (let s = A.encounterSpotStart[p]!; s < A.encounterSpotStart[p + 1]!; s++) {
        const spot = A.encounterSpotId[s]!;
        // Tolerated: CNavArea::Save itself writes 0 for a spot that is gone ("order->spot
        // may be NULL if we've loaded a nav mesh that has been edited but not re-analyzed").
        if (!hidingSpotIds.has(spot)) out.push(warning('nav.encounter.missing-spot', `area ${id}: encounter path ${from}→${to} names hiding spot ${spot}, which does not exist (the engine keeps the path; nav_analyze rebuilds it)`, area(a)));
      }
    }

    if (navGates.ladderLinks(doc.version)) {
      for (let d = 0; d < 2; d++) {
        for (let i = A.ladderLinkStart[a * 2 + d]!; i < A.ladderLinkStart[a * 2 + d + 1]!; i++) {
          const l = A.ladderLinkId[i]!;
          // PostLoad reports "Corrupt navigation ladder data" and keeps the link with a null
          // ladder, which a path over that link then follows.
          if (!ladderIds.has(l)) out.push(error('nav.ladder-link.missing-ladder', `area ${id}: ${NAV_LADDER_DIRECTIONS[d]} ladder link to ladder ${l}, which does not exist`, area(a)));
        }
      }
    }

    if (navGates.visibility(doc.version)) {
      for (let i = A.visibleStart[a]!; i < A.visibleStart[a + 1]!; i++) {
        const t = A.visibleId[i]!;
        // PostLoad warns "Invalid area in visible set" and removes the entry.
        if (!areaExists(t)) out.push(warning('nav.visibility.missing-area', `area ${id}: visibility entry for area ${t}, which does not exist (the engine warns and drops the entry)`, area(a)));
        // Stored and compared as bits (POTENTIALLY/COMPLETELY_VISIBLE); other values are kept unread.
        if (A.visibleAttributes[i]! > 3) out.push(warning('nav.visibility.bad-attributes', `area ${id}: visibility entry for area ${t} has attributes ${A.visibleAttributes[i]}, expected 0–2`, area(a)));
      }
      const inherit = A.inheritVisibilityFrom[a]!;
      // PostLoad looks the anchor up and keeps a null one without a message; visibility
      // queries then use the area's own list only. 12 real CS:GO maps have such areas.
      if (inherit !== 0 && !areaExists(inherit)) {
        out.push(warning('nav.visibility.missing-anchor', `area ${id}: inherits visibility from area ${inherit}, which does not exist (the engine loads it and uses the area's own visibility list)`, area(a)));
      }
    }
  }

  const L = doc.ladders;
  const lw = floatView(L.words);
  for (let i = 0; i < L.count; i++) {
    const id = L.id[i]!;
    const subject = { kind: 'ladder' as const, id };
    for (let j = 0; j < NAV_LADDER_AREAS; j++) {
      const ref = L.areas[i * NAV_LADDER_AREAS + j]!;
      // CNavLadder::Load keeps a null area ("ERROR: Unconnected ladder"): the ladder cannot be used.
      if (ref !== 0 && !areaExists(ref)) out.push(error('nav.ladder.missing-area', `ladder ${id}: ${LADDER_AREA_NAMES[j]} area ${ref} does not exist`, subject));
    }
    const direction = L.words[i * NAV_LADDER_WORDS + 8]!;
    // CNavLadder::SetDir builds the ladder's normal from the four directions only: the
    // ladder loads with a zero normal and is still climbed by its top and bottom areas.
    if (direction > 3) out.push(warning('nav.ladder.bad-direction', `ladder ${id}: direction ${direction} is not north/east/south/west`, subject));
    for (let j = 0; j < 8; j++) {
      // Ladder ends feed the climb code's arithmetic directly: a bot on it cannot reach either end.
      if (!Number.isFinite(lw[i * NAV_LADDER_WORDS + j]!)) {
        out.push(error('nav.ladder.not-finite', `ladder ${id}: a coordinate or size is not a finite number`, subject));
        break;
      }
    }
  }

  // Garbage padding: the loaders read exactly the structures they know and never look
  // further. Likely cause: the GoldSrc bot's SaveNavigationMap opens the file on Windows
  // without _O_TRUNC, so a shorter save over a longer one keeps the old tail (2 of the 3
  // real v3/v4 fixtures and 1 of the 5 v5 ones carry bytes that look like area records).
  if (doc.trailing.length > 0) {
    out.push(warning('nav.trailing-bytes', `${doc.trailing.length} bytes after the last structure of version ${doc.version}; the engine ignores them (kept as stored)`));
  }

  // WarnIfMeshNeedsAnalysis: a console warning; the mesh is used as it is.
  if (navGates.isAnalyzed(doc.version) && doc.isAnalyzed === 0 && n > 0) {
    out.push(warning('nav.not-analyzed', 'the mesh is not analyzed; the engine logs "The nav mesh needs a full nav_analyze"'));
  }
  return out.finish();
}

const LADDER_AREA_NAMES = ['top forward', 'top left', 'top right', 'top behind', 'bottom'];

function validatePlaces(doc: NavDocument, out: FindingSink): void {
  const A = doc.areas;
  const P = doc.places;
  const seen = new Map<string, number>();
  for (let i = 0; i < P.count; i++) {
    const s = P.start[i]!;
    const e = P.start[i + 1]!;
    const subject = { kind: 'place' as const, id: i + 1 };
    const name = placeName(P.data, s, e);
    // The name is looked up with NameToPlace; one that matches nothing loads as an unknown place.
    if (e === s || P.data[e - 1] !== 0) out.push(warning('nav.place.unterminated', `place ${i + 1} ("${name}") is not NUL-terminated`, subject));
    // PlaceDirectory::Load reads the name into a 256-byte stack buffer: a longer one overruns it.
    if (e - s > PLACE_NAME_BUFFER) out.push(error('nav.place.too-long', `place ${i + 1} is ${e - s} bytes; the engine's buffer holds ${PLACE_NAME_BUFFER}`, subject));
    const dup = seen.get(name);
    // Both indices resolve to the same place: the areas are named the same either way.
    if (dup !== undefined) out.push(warning('nav.place.duplicate', `place ${i + 1} ("${name}") repeats place ${dup}`, subject));
    else seen.set(name, i + 1);
  }
  for (let a = 0; a < A.count; a++) {
    const p = A.place[a]!;
    // PlaceDirectory::IndexToPlace returns UNDEFINED_PLACE for an index past the directory
    // (an assert in debug builds only): the area loads unnamed.
    if (p > doc.places.count) {
      out.push(warning('nav.area.place-out-of-range', `area ${A.id[a]}: place index ${p} but the file names ${doc.places.count} place(s) (the engine loads the area without a place)`, { kind: 'area', id: A.id[a]! }));
    }
  }
}

function validateAttributes(doc: NavDocument, out: FindingSink): void {
  const A = doc.areas;
  const v = doc.version;
  const known = v <= 5 ? GOLDSRC_ATTRIBUTES : v < 13 ? 0xffffffff : KNOWN_ATTRIBUTES_V13 | RUNTIME_ATTRIBUTES;
  for (let a = 0; a < A.count; a++) {
    const attrs = A.attributes[a]!;
    const subject = { kind: 'area' as const, id: A.id[a]! };
    const unknown = (attrs & ~known) >>> 0;
    // Attribute bits are tested one by one; bits no code tests change nothing in game.
    if (unknown) out.push(warning('nav.area.unknown-attributes', `area ${A.id[a]}: attribute bits ${hex(unknown)} are not defined for version ${v}`, subject));
    // Real CS:GO files carry them (spec §5); the engine overwrites them at run time.
    if (v >= 13 && attrs & RUNTIME_ATTRIBUTES) {
      out.push(warning('nav.area.runtime-attributes', `area ${A.id[a]}: runtime attribute bits ${hex((attrs & RUNTIME_ATTRIBUTES) >>> 0)} were saved (the engine recomputes them)`, subject));
    }
    if (doc.customLayout === 'tf-attributes') {
      const extra = (A.tfAttributes[a]! & ~TF_PERSISTENT_ATTRIBUTES) >>> 0;
      // CTFNavArea saves the word masked to TF_NAV_PERSISTENT_ATTRIBUTES (spec §6); other bits are runtime state.
      if (extra) out.push(warning('nav.area.tf-transient-attributes', `area ${A.id[a]}: TF attribute bits ${hex(extra)} are not among those TF2 saves`, subject));
    }
  }
}

/** The group (area) whose range in a `start` column contains item `k`. */
function ownerOf(start: Uint32Array, k: number): number {
  let lo = 0;
  let hi = start.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (start[mid]! <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
