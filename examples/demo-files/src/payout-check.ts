import { payoutAmount } from './payout.js'

if (payoutAmount(1250, 250) !== 1000) throw new Error('payout is wrong')
