/**
 * Words that make an element's action consequential: destroying data, spending money,
 * committing an order, sending something to someone. Whole words only (an English verb also
 * with -s, -d, -ed, -ing), case- and accent-insensitive, in English, German, French, Spanish,
 * Italian, Portuguese and Dutch. Written without accents: labels are folded before matching.
 */
const CONSEQUENTIAL_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: ['delete', 'remove', 'erase', 'destroy', 'drop', 'purge', 'wipe', 'discard', 'trash', 'pay', 'payment', 'purchase', 'buy', 'order', 'checkout', 'check out', 'send', 'transfer', 'withdraw', 'donate', 'unsubscribe', 'deactivate', 'terminate', 'revoke', 'uninstall', 'reset', 'empty', 'ban', 'close account', 'cancel subscription'],
  de: ['loschen', 'losche', 'entfernen', 'entferne', 'bezahlen', 'kaufen', 'kaufe', 'bestellen', 'bestelle', 'zahlungspflichtig', 'senden', 'absenden', 'uberweisen', 'kundigen', 'vernichten'],
  fr: ['supprimer', 'supprime', 'effacer', 'retirer', 'payer', 'paiement', 'acheter', 'commander', 'envoyer', 'virement', 'transferer', 'resilier'],
  es: ['eliminar', 'borrar', 'quitar', 'pagar', 'pago', 'comprar', 'pedido', 'enviar', 'transferir'],
  it: ['elimina', 'eliminare', 'cancella', 'cancellare', 'rimuovi', 'rimuovere', 'paga', 'pagare', 'acquista', 'acquistare', 'ordina', 'ordinare', 'invia', 'inviare', 'trasferisci'],
  pt: ['excluir', 'apagar', 'remover', 'comprar', 'encomendar', 'enviar', 'transferir'],
  nl: ['verwijderen', 'verwijder', 'wissen', 'betalen', 'kopen', 'koop', 'bestellen', 'bestel', 'verzenden', 'versturen', 'overmaken'],
}

/** The languages the lists cover, as the docs say them. */
export const RISK_WORD_LANGUAGES = Object.keys(CONSEQUENTIAL_WORDS)

/**
 * Phrases where a consequential word means nothing consequential: "sort order", "order by",
 * "check out this article"; a list of one's orders or payments to look at ("Orders", "Order
 * history", "Payment methods", "Deleted items"), or one of them ("Open order 101", "View
 * payment", "Track order": a verb that looks, and the thing it looks at); an editor's formatting ("Remove Format",
 * "Remove link", "Insert/Remove Numbered List": a pair of verbs names one toggle) and a list's
 * view ("Remove filter"); a place to
 * drop files ("Browse or drop files"); feedback sent to the site itself.
 */
const HARMLESS = /\b(sort(ed)? order|order by|in order|reading order|word order|payload|send (us )?(your )?feedback|drop ?down|(drag( and| &| ?'?n'?)? )?drop (your |the |a |an )?(files?|images?|photos?|pictures?|documents?|here|them|it)\b|payment (methods?|options?|history|settings|details|info(rmation)?)|(show |view |hide |see )?(deleted|removed|trashed|sent) (items?|messages?|e?mails?|files?|posts?|users?|folders?|conversations?)|check out (this|these|that|the|our|my|more|an?)\b(?!\s+(cart|bag|basket|order|items?|purchase)\b)|orders? (history|status|details|summary|tracking|number)|remove (format(ting)?|link|hyperlink|indent|highlight|(all )?filters?|sort(ing)?|selection)|(insert|add|show)\s*\/\s*(remove|hide|delete))|^\s*((my|your|recent|past|all|open) )?(orders|payments|purchases|transfers|donations)\s*$|^\s*(open|view|show|see|track|preview|print|find|search( for)?)\s+((the|my|your|this|that|an?)\s+)?(orders?|payments?|purchases?|transfers?|donations?)\b/g

const WORDS = [...new Set(Object.values(CONSEQUENTIAL_WORDS).flat())].sort((a, b) => b.length - a.length)
/** Words whose inflections are their own: "ban" is "bans", "banned", never "band". */
const INFLECTIONS: Readonly<Record<string, string>> = { ban: '(?:s|ned|ning)?' }
// English verbs inflect (deletes, removed, sending); a final e drops before -ing and -ed.
const PATTERN = new RegExp(`(?<![\\p{L}\\p{N}])(?:${WORDS.map((word) => `${word.replace(/e$/, 'e?').replace(/ /g, '\\s+')}${INFLECTIONS[word] ?? '(?:s|d|ed|ing)?'}`).join('|')})(?![\\p{L}\\p{N}])`, 'gu')

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** Words that are verbs only as a label's first word: "Empty trash" empties, "Show empty groups" shows; "Ban user" bans, "Appeal a ban" asks. */
const FIRST_ONLY = /^(empty|ban)/

/** An icon that says "delete" in place of a word: the wastebasket. */
const DELETE_ICON = /\u{1F5D1}/u

/** The consequential word a label contains, or null. */
export function consequentialWord(label: string | undefined): string | null {
  if (label === undefined || label.length === 0) return null
  if (DELETE_ICON.test(label)) return '\u{1F5D1}'
  const folded = fold(label).replace(HARMLESS, ' ')
  for (const match of folded.matchAll(PATTERN)) {
    if (!FIRST_ONLY.test(match[0]) || folded.slice(0, match.index).trim() === '') return match[0]
  }
  return null
}

/** Folders and lists a link leads to, not things it does: a mail's "Trash (3)", "Bin", "Deleted". */
const PLACE = /^\s*(the )?(trash|bin|recycle bin|wastebasket|deleted|removed|sent|junk|spam)\s*(\(?\d+\)?)?\s*$/

/** Whether a link's name is a place it leads to (a folder of a mail box), which a link opens and never empties. */
export function namesAPlace(label: string | undefined): boolean {
  return label !== undefined && PLACE.test(fold(label))
}

/** Whether a name says too little to weigh (none, an icon, a letter such as "x"): the element's other words are read instead. */
export function saysLittle(name: string | undefined): boolean {
  return name === undefined || (name.match(/\p{L}/gu)?.length ?? 0) < 2 || DELETE_ICON.test(name)
}

/**
 * Markup words that say an element destroys something: in class names and ids they name an
 * icon or a style (`btn-delete`, `fa-trash`, `removeItem`, TodoMVC's `destroy`, Bootstrap's
 * `btn-danger`). Narrower than the label words: markup names places too (a `drop-zone`, an
 * `empty-state`, a `send-area`), so only what destroys counts.
 */
const MARKUP_WORDS = ['delete', 'remove', 'trash', 'destroy', 'erase', 'discard', 'purge', 'danger', 'bin', 'wastebasket', 'garbage']
/** A markup word alone, or run together with what names a control (`removebutton`, `btnDelete` once folded, `trashicon`). */
const MARKUP_WORD = new RegExp(`^(?:btn|button|icon|ico|action)?(${MARKUP_WORDS.join('|')})(?:btn|button|icon|ico|link|action|item|row|all)?s?$`)

/** The destructive word an element's markup says of it (its ids, class names and icons, split into words), or null. */
export function markupWord(names: readonly string[]): string | null {
  for (const name of names) {
    for (const word of name.split(/[\s\d_.#-]+|(?<=[a-z])(?=[A-Z])/)) {
      const found = MARKUP_WORD.exec(word.toLowerCase())?.[1]
      if (found !== undefined) return found
    }
  }
  return null
}

/**
 * Labels of the way out of a dialog or a form, in the same languages: a dialog that says
 * "Empty the recycle bin?" makes its "OK" consequential, never its "Cancel".
 */
const DISMISSIVE_WORDS = ['cancel', 'close', 'dismiss', 'no', 'not now', 'keep', 'back', 'abbrechen', 'schliessen', 'schließen', 'nein', 'zuruck', 'annuler', 'fermer', 'non', 'retour', 'cancelar', 'cerrar', 'volver', 'atras', 'annulla', 'chiudi', 'indietro', 'fechar', 'nao', 'voltar', 'annuleren', 'sluiten', 'nee', 'terug']
const DISMISSIVE = new RegExp(`^(?:${DISMISSIVE_WORDS.join('|').replace(/ /g, '\\s+')})(?![\\p{L}\\p{N}])`, 'u')

/**
 * Whether a label starts with a way out ("Cancel", "No, keep it", "Schließen") that the
 * dialog's or form's own words do not use: such a button is not raised by those words. Under
 * "Close account?" a "Close" confirms, so it is no way out there.
 */
export function isDismissive(label: string | undefined, context?: string): boolean {
  const way = label === undefined ? null : DISMISSIVE.exec(fold(label).trim())
  if (way === null) return false
  return context === undefined || !new RegExp(`(?<![\\p{L}\\p{N}])${way[0].replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`, 'u').test(fold(context))
}
