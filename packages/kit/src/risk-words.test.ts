import { describe, expect, it } from 'vitest'
import { RISK_WORD_LANGUAGES, consequentialWord, isDismissive, markupWord, namesAPlace, saysLittle } from './risk-words.js'

describe('consequential words', () => {
  it('finds what destroys, spends or sends, inflected, in seven languages', () => {
    for (const label of ['Delete all', 'Deleting…', 'Remove item', 'Place order', 'Order now', 'Pay €5', 'Buy', 'Purchased', 'Send message', 'Transfer funds', 'Empty trash', 'Ban user', 'Banned', 'Drop table', 'Drop database', 'Jetzt zahlungspflichtig bestellen', 'Löschen', 'Supprimer le compte', 'Eliminar', 'Elimina', 'Excluir conta', 'Verwijderen', 'Check out', 'Proceed to check out now', 'Checkout', 'Check out the basket', 'Check out my bag (3)', 'Empty the bin', 'View and pay invoice', 'Open order and pay', 'Order now']) {
      expect(consequentialWord(label), label).not.toBeNull()
    }
    expect(RISK_WORD_LANGUAGES).toEqual(['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'])
  })

  it('leaves alone words that only contain one, and phrases where it means nothing', () => {
    for (const label of ['Page 2', 'Environment', 'Invite a friend', 'Sender', 'Payload', 'Buyer guide', 'Sort order', 'Order by date', 'Dropdown', 'Add todo', 'Save', 'Cancel', 'Compressed files', 'Ordinary', 'For a detailed explanation, check out this Learning jQuery article.', 'Check out the docs', 'Orders', 'My orders', 'Order history', 'Order status', 'Payments', 'Remove Format', 'Remove link', 'Insert/Remove Numbered List', 'Show / hide', 'Show empty toolbar groups', 'Browse or drop files', 'Drag and drop images here', 'Payment methods', 'Deleted Items', 'Show removed posts', 'Send feedback', 'Send us your feedback', 'Remove filter', 'Remove all filters', 'Band', 'Bandwidth', 'Appeal a ban', 'Open order 101', 'View order', 'Track my order', 'Show payment 12', 'Search for orders', undefined, '']) {
      expect(consequentialWord(label), String(label)).toBeNull()
    }
  })

  it('reads an icon for a word, and what markup says of a button whose name says little', () => {
    expect(consequentialWord('🗑')).toBe('🗑')
    expect(consequentialWord('🗑️ Bin')).toBe('🗑')
    for (const name of [undefined, '', '×', 'x', '🗑', '+', '…']) expect(saysLittle(name), String(name)).toBe(true)
    for (const name of ['OK', 'Delete', 'Bold']) expect(saysLittle(name), name).toBe(false)
    expect(markupWord(['btn btn-outline-danger', 'bi bi-trash3'])).toBe('danger')
    expect(markupWord(['destroy'])).toBe('destroy')
    expect(markupWord(['removeItemButton'])).toBe('remove')
    expect(markupWord(['#delete_row'])).toBe('delete')
    // Words run together with what names the control, and icons that say bin or garbage.
    expect(markupWord(['Removebutton'])).toBe('remove')
    expect(markupWord(['btndelete'])).toBe('delete')
    expect(markupWord(['icon-bin'])).toBe('bin')
    expect(markupWord(['icon-garbage'])).toBe('garbage')
    // Markup names places as well: a drop zone, an empty state, a send area are no verbs there.
    for (const names of [['drop-zone'], ['empty-state'], ['send-area'], ['btn btn-primary', 'icon-bold'], ['undeleted'], ['cabinet'], ['binary-viewer'], ['removed-badge'], []]) expect(markupWord(names), names.join(' ')).toBeNull()
  })

  it('knows a link named for a folder leads there, and does nothing to it', () => {
    for (const label of ['Trash', 'Trash (3)', 'Bin', 'Deleted', 'Sent', 'Junk 12']) expect(namesAPlace(label), label).toBe(true)
    for (const label of ['Empty trash', 'Delete', 'Move to trash', undefined, '']) expect(namesAPlace(label), String(label)).toBe(false)
  })

  it('knows the way out of a dialog, which its words do not make consequential', () => {
    for (const label of ['Cancel', 'Close', 'No, keep it', 'Not now', 'Abbrechen', 'Schließen', 'Annuler', 'Cerrar', 'Não', 'Annuleren']) expect(isDismissive(label), label).toBe(true)
    for (const label of ['OK', 'Delete all items', 'Closet', 'Nobody', 'Note', undefined, '']) expect(isDismissive(label), String(label)).toBe(false)
    // Where the dialog's words use it, the same label confirms.
    expect(isDismissive('Cancel', 'Empty the recycle bin?')).toBe(true)
    expect(isDismissive('Close', 'Close account?')).toBe(false)
    expect(isDismissive('Cancelar', '¿Cancelar el pedido?')).toBe(false)
  })
})
