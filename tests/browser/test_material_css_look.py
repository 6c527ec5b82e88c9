"""The site's copies of Material's stylesheets are cut to the rules the site can use
(publish/mkdocs/page_weight/material_css.py). The cut only removes rules, and selectors from a rule's list, and keeps
the rest byte for byte, so for every element the cascade, and hence the computed style, is the same
under the cut and the whole files if two things hold, which Chromium checks here on a set of pages,
in a set of states, in light and in dark:

- the rules the browser reads from each cut file are the rules it reads from Material's whole file
  (parsed in the same page as a constructed stylesheet), in the same order, less some: each rule
  compared by its declarations as the browser writes them back and the @media / @supports blocks
  it sits in, its selectors being the whole rule's or some of them;
- no selector that was cut applies: with every state a reader can change (:hover, :focus, :checked,
  ...) taken as true and every pseudo-element taken as its element, it matches no element of the
  page in that state; an @keyframes that was cut is named by no rule left and no running
  animation; nothing else (an @font-face, ...) was cut.

A state is a page brought somewhere a reader takes it (a search typed and its results shown, the
navigation drawer opened on a 375 px screen, a copy button hovered, a content tab switched); dark is
the palette toggle clicked in that state. Any difference fails, naming the page, state, scheme and
rule (and the element a cut selector would match).

This replaced a comparison of every computed property of every element under the cut and the whole
files (DOMSnapshot, 16 MB per snapshot of a large page): the same cases took 126 s of the suite."""

from __future__ import annotations

from pathlib import Path

import material
import pytest
from browser_checks import animations_ended

from publish.mkdocs.page_weight.material_css import STYLESHEETS, stylesheets

pytestmark = [pytest.mark.browser, pytest.mark.slow]

THEME = Path(material.__file__).parent / "templates"
PHONE = {"width": 375, "height": 740}

# Material's whole files by name, as the rules the browser reads: [cut file's rules, whole file's].
RULES_JS = r"""(wholes) => {
  const leaves = (rules, where, out) => {
    for (const rule of rules) {
      if (rule instanceof CSSGroupingRule && !(rule instanceof CSSStyleRule)) {
        const cond = rule.conditionText ?? rule.name ?? '';
        leaves(rule.cssRules, where + '@' + rule.constructor.name + '(' + cond + ') ', out);
      } else {
        out.push({where, rule, text: where + rule.cssText});
      }
    }
    return out;
  };
  const sheets = [...document.styleSheets].filter((s) => s.href && /\/stylesheets\/[^/]+\.min\.css$/.test(s.href));
  return sheets.map((sheet) => {
    const name = sheet.href.split('/').pop();
    const whole = new CSSStyleSheet();
    whole.replaceSync(wholes[name]);
    return {name, cut: leaves(sheet.cssRules, '', []), whole: leaves(whole.cssRules, '', [])};
  });
}"""

# Every state a reader can change, taken as true; a pseudo-element, as its element. A :not() that
# holds one is taken as true too (it may or may not match, so the rule may apply).
CHECK_JS = r"""(wholes) => {
  const sheets = (RULES_JS)(wholes);
  const problems = [];
  const STATE = new RegExp(':(' + [
    'hover', 'active', 'focus', 'focus-visible', 'focus-within', 'visited', 'link', 'any-link', 'target',
    'checked', 'indeterminate', 'placeholder-shown', 'disabled', 'enabled', 'read-only', 'read-write',
    'valid', 'invalid', 'user-valid', 'user-invalid', 'required', 'optional', 'modal', 'popover-open',
    'open', 'closed', 'fullscreen', 'autofill', 'playing', 'paused', 'defined', 'default',
    '-webkit-[\\w-]+', '-moz-[\\w-]+',
  ].join('|') + ')(?![\\w(-])', 'g');
  const PSEUDO = new RegExp('::?(' + [
    'before', 'after', 'first-line', 'first-letter', 'marker', 'placeholder', 'selection', 'backdrop',
    'file-selector-button', 'details-content', '-webkit-[\\w-]+', '-moz-[\\w-]+', '-ms-[\\w-]+',
  ].join('|') + ')(?![\\w-])(\\([^()]*\\))?', 'g');
  const loose = (selector) => selector
    .replace(PSEUDO, '')
    .replace(/:not\(([^()]*)\)/g, (all, inner) => (inner.search(STATE) >= 0 ? ':is(*)' : all))
    .replace(STATE, ':is(*)');
  const describe = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    [...e.classList].map((c) => '.' + c).join('');
  // A selector list split at its top-level commas (not those inside :is(...) or [...]).
  const split = (list) => {
    const parts = [];
    let depth = 0, start = 0;
    for (let i = 0; i < list.length; i++) {
      const c = list[i];
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      else if (c === ',' && depth === 0) { parts.push(list.slice(start, i).trim()); start = i + 1; }
    }
    return [...parts, list.slice(start).trim()];
  };
  // A rule of the cut file is the whole file's rule in that place, or the same rule with fewer
  // selectors (the cut drops the selectors of a list that nothing can match, and keeps the rest).
  const same = (cut, whole) => {
    if (cut.where !== whole.where || cut.rule.constructor !== whole.rule.constructor) return null;
    if (!(cut.rule instanceof CSSStyleRule)) return cut.text === whole.text ? [] : null;
    if (cut.rule.style.cssText !== whole.rule.style.cssText) return null;
    const kept = new Set(split(cut.rule.selectorText));
    const all = split(whole.rule.selectorText);
    return [...kept].every((sel) => all.includes(sel)) ? all.filter((sel) => !kept.has(sel)) : null;
  };
  let cutCount = 0;
  for (const {name, cut, whole} of sheets) {
    let j = 0;
    const removed = [];
    for (const leaf of whole) {
      const gone = j < cut.length ? same(cut[j], leaf) : null;
      if (gone === null) {
        removed.push({...leaf, selectors: leaf.rule instanceof CSSStyleRule ? split(leaf.rule.selectorText) : []});
      } else {
        j++;
        if (gone.length) removed.push({...leaf, selectors: gone});
      }
    }
    if (j < cut.length) {
      problems.push(`${name}: a rule of the cut file is not in the whole file there: ${cut[j].text.slice(0, 200)}`);
    }
    cutCount += removed.length;
    const kept = cut.map((leaf) => leaf.text).join('\n');
    const running = new Set(document.getAnimations().map((a) => a.animationName).filter(Boolean));
    for (const {where, rule, selectors} of removed) {
      if (rule instanceof CSSStyleRule) {
        for (const selector of selectors) {
          let match = null;
          try {
            match = document.querySelector(loose(selector));
          } catch (e) {
            problems.push(`${name}: cannot test the cut selector ${where}${selector}: ${e.message}`);
            continue;
          }
          if (match) problems.push(`${name}: the cut selector ${where}${selector} matches ${describe(match)}`);
        }
      } else if (rule instanceof CSSKeyframesRule) {
        if (running.has(rule.name) || new RegExp('(^|[^\\w-])' + rule.name + '($|[^\\w-])').test(kept))
          problems.push(`${name}: the cut @keyframes ${rule.name} is named by a rule left or a running animation`);
      } else {
        problems.push(`${name}: a rule other than a style rule or @keyframes was cut: ${rule.cssText.slice(0, 200)}`);
      }
    }
  }
  return {problems, sheets: sheets.length, cut: cutCount, kept: sheets.reduce((n, s) => n + s.cut.length, 0)};
}""".replace("RULES_JS", RULES_JS)


# While the palette switches (Material's script sets data-md-color-switching on <body> for a frame),
# no transition runs: Material's palette.css says so for every element and its ::before and ::after,
# the site's stylesheet for those that have a transition (publish/mkdocs/page_weight/material_css.py, SWITCHING). Every
# element and both pseudo-elements of each, in the page's state, under the attribute: those whose
# transition would last.
SWITCHING_JS = r"""() => {
  const body = document.body;
  const had = body.hasAttribute('data-md-color-switching');
  body.setAttribute('data-md-color-switching', '');
  const lasting = [];
  let seen = 0;
  for (const e of document.querySelectorAll('*')) {
    for (const pseudo of [null, '::before', '::after']) {
      const durations = getComputedStyle(e, pseudo).transitionDuration.split(',');
      seen++;
      if (durations.some((d) => parseFloat(d) !== 0))
        lasting.push(e.tagName.toLowerCase() + [...e.classList].map((c) => '.' + c).join('') + (pseudo || ''));
    }
  }
  if (!had) body.removeAttribute('data-md-color-switching');
  return {lasting, seen};
}"""


def _settled(page) -> None:
    """What the rules are read against is the state as it stays (browser_checks.animations_ended)."""
    animations_ended(page)


def _search(page) -> None:
    page.locator("input.md-search__input").click()
    page.locator("input.md-search__input").press_sequentially("softmax")
    page.locator(".md-search-result__item").first.wait_for()
    _settled(page)


def _drawer(page) -> None:
    page.locator("label.md-header__button[for=__drawer]").click()
    assert page.locator("#__drawer").is_checked()
    _settled(page)


def _hover_copy(page) -> None:
    button = page.locator(".md-typeset button.md-code__button").locator("visible=true").first
    button.scroll_into_view_if_needed()
    button.hover()
    # The site has no Material tooltips (no content.tooltips): the button's title is the browser's.
    assert button.evaluate("(b) => b.matches(':hover')")
    _settled(page)


def _switch_tab(page) -> None:
    label = page.locator(".tabbed-set .tabbed-labels > label:nth-child(2)").locator("visible=true").first
    label.scroll_into_view_if_needed()
    label.click()
    _settled(page)


def _model_mode(page) -> None:
    """The playground's language-model mode (loaded when its tab opens), a weight explained, its words listed."""
    page.wait_for_selector("#pg-panel-model[data-state=ready]")
    page.locator("#pg-model-b1h1 tbody tr").nth(1).locator("td").first.click()
    page.locator("#pg-model-vocabulary summary").click()
    page.wait_for_selector("#pg-model-explain:not([hidden])")
    _settled(page)


def _none(page) -> None:
    pass


# (page, state, action, viewport)
CASES = [
    ("", "loaded", _none, None),
    ("real-numbers/", "loaded", _none, None),  # tabs, code, math, admonitions, details
    ("playground/", "loaded", _none, None),
    ("notebooks/real-numbers/", "loaded", _none, None),
    ("examples/the_cat_sat/", "loaded", _none, None),
    ("api/", "loaded", _none, None),
    ("", "search results open", _search, None),
    # The states reached by a click or a hover, on a page with tabs, code and copy buttons.
    ("where-used/", "drawer open at 375 px", _drawer, PHONE),
    ("where-used/", "copy button hovered", _hover_copy, None),
    ("where-used/", "second content tab", _switch_tab, None),
    ("playground/#model=the+cat+sat&generate=1", "language model's mode", _model_mode, None),
]


def wholes(site) -> dict[str, str]:
    """Material's whole files, by the names of the site's cut copies."""
    return {p.name: (THEME / STYLESHEETS / p.name).read_text(encoding="utf-8") for p in stylesheets(site.dir)}


@pytest.mark.parametrize(
    ("path", "state", "action", "viewport"), CASES, ids=[f"{p or 'home'}-{s}" for p, s, _, _ in CASES]
)
def test_no_rule_that_was_cut_applies(site, new_context, path, state, action, viewport):
    texts = wholes(site)
    assert len(texts) == 2 and all(
        (site.dir / STYLESHEETS / n).stat().st_size < len(t.encode()) for n, t in texts.items()
    ), "the site's copies of Material's stylesheets are not cut"
    context = new_context(color_scheme="light")
    page = context.new_page()
    if viewport:
        page.set_viewport_size(viewport)  # the session's viewport is a laptop's
    page.goto(site.base_url + path)
    page.wait_for_load_state("load")
    action(page)
    problems = []
    for scheme in ("light", "dark"):
        if scheme == "dark":
            # The toggle's label clicked where it is (the open drawer covers the header on a phone).
            page.locator("[data-md-component=palette] label:not([hidden])").evaluate("(label) => label.click()")
            page.wait_for_function("() => document.body.dataset.mdColorScheme === 'slate'")
        found = page.evaluate(CHECK_JS, texts)
        assert found["sheets"] == 2 and found["cut"] > 300 and found["kept"] > 500, found | {"problems": "..."}
        problems += [f"{path or 'home'} ({state}, {scheme}): {p}" for p in found["problems"]]
        switching = page.evaluate(SWITCHING_JS)
        assert switching["seen"] > 300, switching
        problems += [
            f"{path or 'home'} ({state}, {scheme}): a transition runs while the palette switches: {e}"
            for e in switching["lasting"]
        ]
    assert not problems, f"{len(problems)} problems, first:\n" + "\n".join(problems[:20])
