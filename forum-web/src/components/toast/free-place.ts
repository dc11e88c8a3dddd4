const GAP_PX = 8;
/** What of the page a toast must not cover: its words (text nodes), its controls and pictures (and cards' edges, below). */
const SOLID = 'a, button, input, textarea, select, img, svg, [role="combobox"], [role="slider"]';

/** The boxes of what the page shows in `main` whose tops are above `below` (the screen's part a toast may take). */
function pageContent(main: Element, below: number): DOMRect[] {
  const boxes: DOMRect[] = [];
  const keep = (box: DOMRect) => {
    if (box.width > 1 && box.height > 1 && box.top < below && box.bottom > 0) boxes.push(box);
  };
  const words = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = words.nextNode(); node; node = words.nextNode()) {
    if (!node.textContent?.trim()) continue;
    // words only for screen readers sit in a 1-pixel box that clips them: nothing shows
    const holder = node.parentElement?.getBoundingClientRect();
    if (!holder || holder.width <= 1 || holder.height <= 1) continue;
    range.selectNodeContents(node);
    for (const box of range.getClientRects()) keep(box);
  }
  for (const element of main.querySelectorAll(SOLID)) keep(element.getBoundingClientRect());
  // a card's top and bottom edges: a toast is on a card or off it, never across its edge
  for (const card of main.querySelectorAll('.MuiPaper-root')) {
    const { left, width, top, bottom } = card.getBoundingClientRect();
    for (const edge of [top, bottom - 2]) keep(new DOMRect(left, edge, width, 2));
  }
  return boxes;
}

/**
 * Where a toast of `toast`'s size and side goes: the highest place below the app bar, in the top half
 * of the screen, where it covers none of the page's words, controls or pictures (beside a short title,
 * below a title row with its actions, below an intro). Where there is none (a phone, where a toast
 * spans the screen), over the bar's own band, its bottom on the bar's (or at the screen's top when it
 * is the taller): the page stays whole, and the bar comes back when the toast goes.
 */
export function freePlace(toast: DOMRect): number {
  const bar = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
  const main = document.querySelector('main');
  const first = bar + GAP_PX;
  if (!main) return first;
  const lowest = Math.max(first, window.innerHeight / 2);
  const beside = pageContent(main, lowest + toast.height).filter((box) => box.right > toast.left && box.left < toast.right);
  const covers = (top: number) => beside.some((box) => box.top < top + toast.height && box.bottom > top);
  const tops = [first, ...beside.map((box) => box.bottom + GAP_PX)].filter((top) => top >= first && top <= lowest).sort((a, b) => a - b);
  return tops.find((top) => !covers(top)) ?? Math.max(0, bar - toast.height);
}
