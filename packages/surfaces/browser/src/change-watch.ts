import { MOST_CLASSES_CHANGED } from './browser-schemas.js'

/**
 * Runs in every document of a tile before the page's own scripts: tells the tile when the
 * DOM changes (at most every 80 ms, through the `__tesseraChanged` binding) so a cached frame
 * is never served stale, and offers `__tesseraQuiet(quietMs, maxMs)`, which resolves once
 * the DOM has gone quietMs without a change, no short timer an input event started is still
 * to run and no navigation the page asked for is on its way — how an action knows the page
 * has settled.
 *
 * Those timers are how pages answer input a moment later: a menu opens its submenu 300 ms
 * after a hover, an autocomplete searches 300 ms after the last key, a field validates when
 * typing pauses. Waiting for them, and only for them, is what lets a hover or a keystroke
 * answer with what it caused, instead of a fixed sleep after every action. A timer counts
 * when it is set while an input event is being handled (`window.event`) and is due within
 * INPUT_TIMER_MAX_MS. So does a short one such a timer sets in turn, up to
 * INPUT_TIMER_GENERATIONS deep: an autocomplete searches 300 ms after a key and announces
 * "2 results are available" 100 ms after that. An interval counts until its first beat: a
 * counter or a progress bar a click starts is shown begun. Deeper, a chain is the page's own loop, which
 * never holds an action up; nor is a toast's few seconds on screen waited out.
 *
 * What it adds is non-enumerable and set once; a page that overwrites it only blinds itself.
 */
export const INPUT_TIMER_MAX_MS = 500
export const INPUT_TIMER_GENERATIONS = 3
/**
 * A navigation to another document that the page asked for (a form sent, a link followed)
 * holds the quiet this long, or until the document goes: the tile sees its request only a
 * moment later, and an answer read before it would say `page unchanged` on the old page.
 */
export const NAVIGATION_GRACE_MS = 1000
/**
 * An animation's steps — a style attribute whose numbers alone change (`opacity: 0.4` to
 * `opacity: 0.6`, a colour fading) — hold the quiet this long from the first of a run, then
 * no longer: jQuery's default and slow animations (400 and 600 ms) are waited out, a form's
 * 1.5 s highlight fading from a warning is not. What the steps change is drawn, never what the page's tree
 * says; the style that begins or ends an animation (`display: none`) counts as any change.
 */
export const ANIMATION_GRACE_MS = 650
/**
 * An animation the browser runs itself (a CSS transition or animation, or one a script started
 * with `element.animate`, as Shoelace's dialog does) changes no DOM while it plays, and the page
 * often changes the DOM only when it ends (the dialog hidden). One that shows, hides or moves
 * something (opacity, transform, size, place), started since the agent last acted and lasting at
 * most this long, is waited out; a colour's is not, and a longer or endless one is the page's
 * own motion (a spinner, a carousel).
 */
export const TRANSIENT_ANIMATION_MS = 650
/** Most elements whose class change since an input the page keeps (the first change of each). */
const CLASS_CHANGES_HEARD = 200
/** Steps further apart than this are another animation's. */
const ANIMATION_GAP_MS = 100
/**
 * The page's own motion: a node that was already changing, again and again, when the agent
 * acted — a stopwatch's digits, a live ticker, a chart redrawn every frame — never holds the
 * quiet, or every action on such a page would wait out SETTLE_MAX_MS. A node's changes are one
 * run while each comes within MOTION_GAP_MS of the last (longer gaps let the quiet come anyway);
 * a run is motion once it began MOTION_MS before the last input event — or, with no input
 * since the document loaded (a navigation), once it has gone on for MOTION_UNPROMPTED_MS:
 * a page building itself in chunks is waited for that long. A change the action started (a
 * reply streaming in) is no motion: it is waited for, as any change.
 */
export const MOTION_GAP_MS = 150
export const MOTION_MS = 300
export const MOTION_UNPROMPTED_MS = 1000

export const CHANGE_WATCH_SCRIPT = `(() => {
  if (window.__tesseraQuiet) return
  const nativeSet = window.setTimeout
  const nativeClear = window.clearTimeout
  const nativeClearInterval = window.clearInterval
  const INPUT_EVENTS = new Set(['click', 'dblclick', 'contextmenu', 'auxclick', 'mousedown', 'mouseup', 'mouseover', 'mouseout', 'mouseenter', 'mouseleave', 'mousemove',
    'pointerdown', 'pointerup', 'pointerover', 'pointerout', 'pointerenter', 'pointerleave', 'pointermove', 'keydown', 'keyup', 'keypress', 'beforeinput', 'input', 'change',
    'focus', 'blur', 'focusin', 'focusout', 'wheel', 'scroll', 'submit', 'touchstart', 'touchend', 'dragstart', 'dragenter', 'dragover', 'drop', 'dragend', 'compositionend', 'paste', 'cut'])
  /** Timers an input event started, or one of those in turn, by id: when each is due. */
  const pending = new Map()
  /** While a counted timer runs: its generation (1 for one an input event set), else 0. */
  let running = 0
  let last = performance.now()
  let timer = 0
  let runStart = -Infinity
  let lastStep = -Infinity
  // Which document this is, and how many changes it has had: a notice says both, and so does a
  // capture's probe, read before the capture reads the page. A notice that comes in while a
  // capture runs, of changes the capture had already counted, is no news (see ChangeMark).
  const documentMark = Math.random().toString(36).slice(2)
  let changes = 0
  Object.defineProperty(window, '__tesseraChangeMark', { value: () => [documentMark, changes] })
  // A change that is only the page's own motion (see MOTION_GAP_MS) is news for the frame, never a reason to wait.
  const changed = (step = false, motion = false) => {
    changes++
    const now = performance.now()
    if (step) {
      if (now - lastStep > ${ANIMATION_GAP_MS}) runStart = now
      lastStep = now
    }
    if (!motion && (!step || now - runStart < ${ANIMATION_GRACE_MS})) last = now
    if (timer) return
    timer = nativeSet(() => {
      timer = 0
      const notify = window.__tesseraChanged
      if (typeof notify === 'function') notify(documentMark, changes).catch(() => {})
    }, 80)
  }
  // Described as the originals are, so a page sees the same property it would have.
  const replace = (name, value) => Object.defineProperty(window, name, { value, writable: true, configurable: true, enumerable: true })
  /**
   * A timer (a timeout, or an interval's first beat) an input event set, or a short one such a
   * timer set in turn: its generation, else 0 for one that never holds the quiet.
   */
  const generationOf = (handler, delay) => {
    const event = window.event
    const generation = running > 0 ? running + 1 : event !== undefined && INPUT_EVENTS.has(event.type) ? 1 : 0
    const ms = Math.max(0, Number(delay) || 0)
    return typeof handler !== 'function' || generation > ${INPUT_TIMER_GENERATIONS} || ms > ${INPUT_TIMER_MAX_MS} ? 0 : generation
  }
  /** Runs a counted timer's handler as its generation, so the timers it sets are counted one deeper. */
  const runAs = (generation, handler, self, args) => {
    const outer = running
    running = generation
    try {
      return handler.apply(self, args)
    } finally {
      running = outer
    }
  }
  /** Sets a counted timer through set (the native setTimeout or setInterval): pending until its first run. */
  const counted = (set, handler, delay, args, onlyFirst) => {
    const generation = generationOf(handler, delay)
    if (generation === 0) return set(handler, delay, ...args)
    let runs = 0
    const id = set(function () {
      pending.delete(id)
      // Of an interval only the first beat is the input's answer; the rest are the page's own motion.
      return onlyFirst && runs++ > 0 ? handler.apply(this, arguments) : runAs(generation, handler, this, arguments)
    }, delay, ...args)
    pending.set(id, performance.now() + Math.max(0, Number(delay) || 0))
    return id
  }
  replace('setTimeout', function setTimeout(handler, delay, ...args) {
    return counted(nativeSet, handler, delay, args, false)
  })
  // An interval an input event started (a counter, a progress bar) counts until its first beat: the answer shows it began.
  const nativeSetInterval = window.setInterval
  replace('setInterval', function setInterval(handler, delay, ...args) {
    return counted(nativeSetInterval, handler, delay, args, true)
  })
  replace('clearTimeout', function clearTimeout(id) {
    pending.delete(id)
    return nativeClear(id)
  })
  // Timeouts and intervals share their ids: clearInterval also ends a timeout.
  replace('clearInterval', function clearInterval(id) {
    pending.delete(id)
    return nativeClearInterval(id)
  })
  let navigatingAt = -Infinity
  if (window.navigation) window.navigation.addEventListener('navigate', (event) => {
    if (!event.destination.sameDocument && event.downloadRequest === null) navigatingAt = performance.now()
  })
  // A form sent navigates only in a task queued after its submit event: a wait asked for
  // right after the click could end before the navigate event above. The submit event is
  // heard at once; whether a handler prevented it is known once its dispatch is over.
  let submitted = null
  let submittedAt = -Infinity
  window.addEventListener('submit', (event) => {
    const form = event.target
    const target = (event.submitter && event.submitter.getAttribute('formtarget')) || (form && form.getAttribute && form.getAttribute('target')) || ''
    if (form && form.method === 'dialog') return
    if (target !== '' && target.toLowerCase() !== '_self') return
    submitted = event
    submittedAt = performance.now()
  }, true)
  const sentAt = () => (submitted !== null && !submitted.defaultPrevented ? submittedAt : -Infinity)
  Object.defineProperty(window, '__tesseraQuiet', {
    value: (quietMs, maxMs) => new Promise((resolve) => {
      const started = performance.now()
      const check = () => {
        const now = performance.now()
        const end = started + maxMs
        // A timer that is due but has not run yet (the page is busy) is still waited for.
        let due = -1
        for (const at of pending.values()) if (at < end) due = Math.max(due, at)
        const leaving = Math.max(navigatingAt, sentAt()) + ${NAVIGATION_GRACE_MS}
        const moving = animatingUntil(now)
        if ((now - last >= quietMs && due < 0 && now >= leaving && now >= moving) || now >= end) resolve(now - started)
        // Looks again the moment the page could be settled, not on a coarser beat.
        else nativeSet(check, Math.max(1, Math.min(Math.max(last + quietMs, due + 1, leaving, moving) - now, end - now)))
      }
      check()
    }),
  })
  // What may lay the page out anew, counted: a capture reuses the last layout while the count stands (kept-layout.ts).
  // The document's own scroll is not counted: the capture knows it, and it moves only what is pinned to the view. Nor
  // is a hover: after a click the pointer rests on the page, and every scroll under it hovers something else. What a
  // hover reveals by style alone is undrawn in the kept layout, and a capture reads undrawn parts whatever their place.
  let layoutVersion = 0
  const relaid = () => { layoutVersion++ }
  Object.defineProperty(window, '__tesseraLayoutVersion', { value: () => layoutVersion })
  const NUMBERS = /-?(?:\\d+\\.?\\d*|\\.\\d+)(?:e[-+]?\\d+)?/gi
  const shapeOf = (style) => (style || '').replace(NUMBERS, '0')
  // Compared once per element, first value to last: a step sets its properties one by one, each a record.
  const animationStep = (records) => {
    const first = new Map()
    for (const record of records) {
      if (record.type !== 'attributes' || record.attributeName !== 'style') return false
      if (!first.has(record.target)) first.set(record.target, record.oldValue)
    }
    for (const [element, was] of first) if (shapeOf(was) !== shapeOf(element.getAttribute('style'))) return false
    return true
  }
  // When the agent last acted: motion is what was already going on then.
  let inputAt = -Infinity
  // A fade, a slide or a fold may end in the DOM changing (the element hidden, removed); a colour
  // fading on hover never does, and TodoMVC's 400 ms colour transitions held every click.
  const SHOWING = new Set(['opacity', 'visibility', 'display', 'transform', 'translate', 'scale', 'rotate', 'height', 'width', 'max-height', 'maxHeight', 'top', 'left', 'right', 'bottom', 'inset', 'clip-path', 'clipPath'])
  const showsOrHides = (animation) => {
    if (typeof animation.transitionProperty === 'string') return SHOWING.has(animation.transitionProperty)
    const frames = animation.effect && animation.effect.getKeyframes ? animation.effect.getKeyframes() : []
    return frames.some((frame) => Object.keys(frame).some((key) => SHOWING.has(key)))
  }
  // When the last transient animation started since then ends (TRANSIENT_ANIMATION_MS), or -1.
  // The document timeline counts from the same origin as performance.now().
  const animatingUntil = (now) => {
    let until = -1
    // A document lists its own tree's animations only: each shadow root lists its own.
    const scopes = [document]
    for (const held of shadowRoots) {
      const root = held.deref()
      if (root === undefined) shadowRoots.delete(held)
      else if (root.host.isConnected) scopes.push(root)
    }
    for (const animation of scopes.flatMap((scope) => (scope.getAnimations ? scope.getAnimations() : []))) {
      const timing = animation.playState === 'running' && animation.startTime !== null && animation.startTime >= inputAt - ${ANIMATION_GAP_MS} && animation.effect ? animation.effect.getComputedTiming() : null
      if (timing === null || !(timing.endTime <= ${TRANSIENT_ANIMATION_MS}) || timing.localTime === null || !showsOrHides(animation)) continue
      until = Math.max(until, now + (timing.endTime - timing.localTime) / Math.abs(animation.playbackRate || 1))
    }
    return until
  }
  // The classes elements had when the agent last acted, of those that changed since (the first value heard): a
  // highlight a key moved through a list that says nothing of it to the tree (mdbook's search results) shows only there.
  let classesAtInput = new Map()
  for (const type of ['pointerdown', 'mousedown', 'keydown', 'click', 'input', 'wheel', 'touchstart', 'drop', 'paste']) addEventListener(type, () => { inputAt = performance.now(); classesAtInput = new Map() }, { capture: true, passive: true })
  const heardClasses = (records) => {
    for (const record of records) {
      if (record.type === 'attributes' && record.attributeName === 'class' && !classesAtInput.has(record.target) && classesAtInput.size < ${CLASS_CHANGES_HEARD}) classesAtInput.set(record.target, record.oldValue || '')
    }
  }
  // The drawn elements whose classes differ now from when the agent last acted, a few: each with its classes then and now.
  Object.defineProperty(window, '__tesseraClassChanges', {
    value: () => {
      const changed = []
      for (const [element, was] of classesAtInput) {
        const now = element.getAttribute('class') || ''
        if (now !== was && element.isConnected && element.getClientRects().length > 0) changed.push({ element, was, now })
        if (changed.length === ${MOST_CLASSES_CHANGED}) break
      }
      return changed
    },
  })
  const runs = new WeakMap()
  // Every node the records touch is in a run of motion (records of one node, of an attribute of it, count as one).
  const ownMotion = (records) => {
    const now = performance.now()
    let all = true
    for (const record of records) {
      let run = runs.get(record.target)
      if (run === undefined || now - run.last > ${MOTION_GAP_MS}) {
        run = { start: now, last: now }
        runs.set(record.target, run)
      }
      run.last = now
      if (!(inputAt === -Infinity ? now - run.start >= ${MOTION_UNPROMPTED_MS} : run.start < inputAt - ${MOTION_MS})) all = false
    }
    return all
  }
  // Shadow roots are watched as the document is: a web component (Lit, Shoelace) changes only
  // its own root, which a document's observer never hears. Each root is watched as it is made.
  // One the parser or innerHTML attached (declarative shadow DOM) is found under what comes in,
  // with the roots inside it, which were filled before anything watched them.
  const watched = new WeakSet()
  // Held weakly: a component the page drops takes its root with it.
  const shadowRoots = new Set()
  const observer = new MutationObserver((records) => {
    heardClasses(records)
    for (const record of records) for (const node of record.addedNodes) if (node.nodeType === 1) watchUnder(node)
    relaid()
    changed(animationStep(records), ownMotion(records))
  })
  const watch = (root) => {
    if (watched.has(root)) return false
    watched.add(root)
    if (root !== document) shadowRoots.add(new WeakRef(root))
    observer.observe(root, { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true })
    return true
  }
  const watchUnder = (element) => {
    for (const host of [element, ...element.querySelectorAll('*')]) if (host.shadowRoot && watch(host.shadowRoot)) watchUnder(host.shadowRoot)
  }
  watch(document)
  const nativeAttachShadow = Element.prototype.attachShadow
  Object.defineProperty(Element.prototype, 'attachShadow', {
    value: function attachShadow(init) {
      const root = nativeAttachShadow.call(this, init)
      watch(root)
      return root
    },
    writable: true,
    configurable: true,
    enumerable: true,
  })
  addEventListener('scroll', (event) => { if (event.target !== document) relaid(); changed() }, { capture: true, passive: true })
  addEventListener('input', () => { relaid(); changed() }, { capture: true, passive: true })
  // An element with content-visibility: auto that comes into view (or goes) is laid out (or skipped) anew.
  for (const type of ['change', 'focusin', 'focusout', 'load', 'error', 'resize', 'transitionend', 'animationend', 'toggle', 'contentvisibilityautostatechange']) addEventListener(type, relaid, { capture: true, passive: true })
  if (document.fonts) document.fonts.addEventListener('loadingdone', relaid)
})()`
