"""finance-close: month-end close of a mid-sized group (five agents)."""
from lessons import L, block

BR, AP, IC, FX, CL = ("bank-reconciliation", "accrual-posting", "intercompany-elimination",
                      "fx-revaluation", "close-checklist")
AB = {"br": BR, "ap": AP, "ic": IC, "fx": FX, "cl": CL}

BACKGROUND = block("""
br | f | I reconciled the euro operating account and matched a card-acquirer settlement to a single ledger line. | The settlement was net of fees, so the ledger showed three lines and the match left two of them orphaned. | Acquirer settlements arrive net; the ledger books gross sales and the fee separately, so one bank line maps to several ledger lines. | a bank line comes from a card acquirer | match it as one-to-many against the gross sales and the fee lines of the same settlement date
br | p | I matched the payroll account but left the returned salary payments open. | Two returned payments sat as unexplained credits at the end of the run. | A returned payment has its own bank reference and never carries the original payment reference. | a credit on the payroll account has no matching ledger line | look for an outgoing salary payment of the same amount in the previous ten days before calling it unexplained
br | f | I closed the reconciliation for the dollar account with the bank balance taken from the intraday report. | The balance moved after the last intraday report, so the reconciliation was off by the late wires. | Intraday reports are provisional; only the end-of-day statement is final for the period. | the period-end balance is being fixed | take the balance from the end-of-day statement, never from an intraday report
br | s | I reconciled a month with a large number of direct debits by grouping them by creditor first. | | Grouping by creditor turned two hundred bank lines into fifteen groups, each matching one vendor's invoices. | a bank account carries many small direct debits | group the debits by creditor before matching, then match each group to that vendor's open invoices
br | f | I matched a cheque deposit to the customer receipt booked on the same day. | The deposit bounced three days later and the match had already closed the receipt. | A cheque deposit is not cleared money; the bank can reverse it for days. | a receipt is a deposited cheque | keep the match provisional until the cheque has cleared, and note the clearing date
br | p | I reconciled the savings account and booked the interest the bank credited. | The bank also withheld tax on the interest, and I booked the net amount as income. | The statement shows one net line; the gross interest and the withholding are only in the bank's advice. | the bank credits interest on an account | book gross interest and the withholding tax separately, using the bank's advice rather than the net statement line
br | f | I reconciled a sub-account that had been renamed by the bank during the month. | Half the month's lines were fetched under the old account name and the other half were missing. | The feed filters by account name, and the rename split the history. | the bank renames or renumbers an account mid-period | fetch lines for both the old and the new identifier and check the day-by-day balance chain
br | s | I cleared a backlog of unmatched lines by sorting them by amount before looking at dates. | | Equal amounts on both sides paired up quickly; the few left over were the real exceptions. | the unmatched list is long | sort both sides by amount first and pair exact amounts, then work the remainder by date
br | f | I matched a bank fee to the wrong cost centre's accrual. | The fee belonged to the treasury account, but my rule matched on amount alone. | Bank fees repeat the same amounts across accounts, so amount-only matching is ambiguous. | the line is a bank charge | match it to the fee schedule of that specific account, not to any ledger line of the same amount
br | p | I reconciled the merchant account at month end with card refunds still in flight. | The refunds posted in the ledger but not in the bank until two days later, leaving a gap I explained only partly. | Refunds have a settlement lag just like sales, only in the other direction. | refunds are booked in the last two days of the month | list them as timing items with their expected settlement date instead of leaving them unexplained
br | f | I imported a bank file twice after the first import looked incomplete. | Every line of the first file was duplicated and the reconciliation doubled. | The first import had succeeded; the preview only showed the first page. | an import looks incomplete | count the lines in the ledger for that statement date before importing the file again
br | s | I reconciled a foreign-currency account in its own currency first and converted only the final difference. | | Working in the account currency kept rate noise out of every single match. | a bank account is held in a foreign currency | reconcile in the account's own currency and translate only the closing balances
br | f | I matched a customer's payment to the oldest open invoice of the same amount. | The remittance advice named a different invoice, so the ageing report showed the wrong item as paid. | Amount and customer are not enough when a customer has several invoices of the same value. | a customer has more than one open invoice of the payment amount | read the remittance reference before choosing which invoice the payment clears
br | p | I reconciled the account where the bank sweeps cash to the group pool every night. | The sweeps were matched, but the return sweeps on the first of the month were not. | The return sweep lands in the next period and carries the pool's reference, not ours. | an account is part of a cash pool | expect a sweep out and a sweep back on period boundaries and match them as a pair across the two periods
ap | f | I posted the utilities accrual from the last bill's amount. | The winter bill was nearly twice the autumn one, so the accrual was badly short. | Consumption is seasonal; last month's bill is the wrong baseline for a heating month. | an accrual is estimated from past bills | use the bill from the same month last year, adjusted for known rate changes, as the baseline
ap | s | I accrued the audit fee evenly over the year instead of in the month of the invoice. | | Spreading it matched the expense to the periods the audit covers and kept the months comparable. | a service covers the whole year but is invoiced once | accrue it monthly over the service period and release the accrual when the invoice arrives
ap | f | I booked a bonus accrual on the headcount at the start of the quarter. | Eleven people had left by the quarter end, so the accrual was too high and was reversed in the audit. | Bonus accruals follow eligible headcount at the reporting date, not at the start of the period. | accruing a people cost | take headcount from the payroll snapshot at the period end
ap | p | I posted the freight accrual with the right amount but no cost centre. | The journal went through to the default cost centre, and the plant manager saw nothing in the report. | The journal template has a default cost centre that hides a missing value. | a journal template fills in a default cost centre | overwrite the default on every line, or the cost lands where nobody looks
ap | f | I accrued a consultant's invoice that had already been posted by accounts payable that morning. | The expense was doubled for the month. | The payable ledger was checked at the start of my run, not right before posting. | an accrual is based on a missing invoice | check the payable ledger again immediately before posting the accrual
ap | s | I wrote each accrual line with the document that supports it in the description. | | Reviewers approved the batch without questions because every line told them where the number came from. | posting a batch of manual accruals | put the supporting document reference in every line's description
ap | f | I accrued a rent increase from the date of the new lease signature. | The lease said the new rent started two months later, so two months were over-accrued. | I read the signature date as the start date. | a contract changes a recurring amount | take the effective date from the contract's term clause, not from the signature page
ap | p | I accrued sales commissions but used the gross order value. | Commission is paid on net value after returns, so the accrual was a little high. | The commission plan's base is net revenue, which I did not look up. | accruing commissions | compute them on the plan's base (net of returns), not on order value
ap | f | I posted accruals into the next period by mistake because the posting date defaulted to today. | The journal landed in the new month, and the closing month was missing the cost. | Posting date and document date are separate fields and the default is the system date. | posting after the calendar month has ended | set the posting date to the last day of the closing period explicitly
ap | s | I used the goods-receipt-not-invoiced report as the checklist for open accruals. | | The report listed every receipt without an invoice, so nothing was accrued twice or forgotten. | building the list of purchases to accrue | start from the received-not-invoiced report and tick each line off
ap | f | I accrued an annual software licence as a monthly expense. | The licence had been prepaid in January, so it was expensed twice. | Prepaid items sit on the balance sheet and are released monthly; they never need an accrual. | a recurring cost appears without an invoice | check the prepaid schedule before accruing it
ap | p | I reversed the accruals for the previous month but missed those kept on a separate journal series. | Two old accruals were still open after the close. | The reversal routine only covers the main series. | reversing last month's accruals | list open accruals from every journal series, not only the main one
ap | f | I accrued travel expenses from the booking tool's totals. | The bookings included cancelled trips, so the accrual was inflated. | The booking totals do not net out cancellations until the refund posts. | accruing travel costs | use the report of trips taken in the period, not bookings made
ap | s | I agreed the accrual total with the budget owner before posting. | | A quick message caught a contract that had been cancelled, which I could not see in the system. | an accrual is above the usual range for a cost centre | confirm it with the budget owner before posting
ic | f | I eliminated intercompany sales but not the unrealised profit left in the buyer's stock. | The consolidated margin was overstated. | Eliminating revenue and cost removes the transaction, but the margin sits in inventory until the goods are sold on. | goods sold between group entities are still in the buyer's stock | eliminate the unrealised profit on that stock as well as the sale
ic | p | I matched the loan between the two entities but not the interest accrued on it. | The balances agreed but the interest lines differed by a few days' worth. | The lender accrues daily and the borrower monthly. | an intercompany loan carries interest | compare accrued interest to the same day count on both sides before eliminating
ic | f | I eliminated a management fee that one side had booked as revenue and the other as a prepaid asset. | The elimination hit expense on a side that had none and left a prepaid on the books. | The two sides had classified the same charge differently. | two entities book the same charge in different account types | agree the classification with both sides before posting the elimination
ic | s | I ran the intercompany match one pair of entities at a time instead of across the whole group. | | Differences were easy to attribute when only two ledgers were in play. | the group has many entity pairs | match and sign off each pair separately, then run the group total as a check
ic | f | I eliminated dividends declared by a subsidiary in the month the cash was paid. | The dividend was declared in the prior quarter, so the elimination fell into the wrong period. | The declaration creates the receivable and payable; the cash only settles it. | a subsidiary declares a dividend | eliminate it in the period of declaration and treat the payment as settlement
ic | p | I reconciled the recharges from the shared service centre but missed the ones for entities joining the group mid-year. | Those recharges had no counterpart and were left in the difference. | The new entities were not in my list of counterparties. | an entity joined the group during the year | add it to the counterparty list before the first intercompany run that includes it
ic | f | I posted the elimination journal in the local ledger of one subsidiary. | Its standalone accounts now showed the elimination as well. | Eliminations belong to the consolidation layer only. | posting an elimination | post it in the consolidation ledger and never in an entity ledger
ic | s | I asked both sides for their balance as of the same cut-off hour on the last day. | | Items booked late on the last day were on one side or the other, and asking for the same hour made them line up. | entities in different time zones close on the same day | set one cut-off hour for all entities and ask each for the balance at that hour
ic | f | I treated a difference between two entities as timing because it was small. | It was a misposting to a third entity, and it was still there the next month. | Small does not mean timing; a timing item must reverse in the next period. | an intercompany difference is called timing | name the document that will arrive next period, and check that it did
ic | p | I netted receivables and payables between two entities before the elimination. | The netting hid a missing invoice on one side. | Netting first leaves one number and loses the line-level detail. | two entities trade both ways | match receivables and payables line by line before netting anything
ic | f | I eliminated a cost recharge at cost while the charging entity had applied a markup. | The markup remained in the consolidated result as profit. | The recharge agreement sets a markup that I did not read. | a service recharge crosses entities | read the recharge agreement for a markup and eliminate the full charged amount
ic | s | I kept a running log of every agreed difference with the name of the entity expected to fix it. | | The next month started from the open log instead of rediscovering the same differences. | a difference is agreed but not fixed | log it with the owning entity and the expected fix date, and start the next month from the log
fx | f | I revalued a supplier payable at the invoice-date rate. | Revaluation must use the closing rate, so the unrealised difference was wrong. | The invoice-date rate belongs to the initial booking only. | revaluing open items | use the closing rate of the reporting date for every open item
fx | p | I revalued the euro balances of the US entity but not the euro balances held by the Swiss entity. | Half the exposure was left at historical rates. | I worked from one entity's list of currency accounts. | revaluing a currency | list balances in that currency across every entity whose functional currency differs
fx | f | I booked the revaluation gain to revenue. | Unrealised FX results belong below the operating line, so the margin report was wrong. | The journal template I copied was for a sales adjustment. | posting revaluation results | post them to the unrealised FX gain and loss accounts only
fx | s | I reversed the previous month's revaluation on the first day before posting the new one. | | The open items carried only one month's revaluation at a time, so settlements booked the right realised difference. | running the monthly revaluation | reverse last month's revaluation entries before posting the new ones
fx | f | I revalued a customer receivable that had already been settled on the last day. | The receivable was revalued although it no longer existed. | The settlement was booked after my extract. | the revaluation extract is taken before the day is over | take the open-items extract after the last posting cut-off of the day
fx | p | I revalued bank accounts in a currency with a managed rate using the market rate. | The group policy requires the official rate for that currency, so the result was restated. | Some currencies have two rates in use and the policy names one. | a currency has an official and a market rate | check the group policy for which rate applies before revaluing
fx | f | I revalued a loan denominated in euro held by a euro entity. | There was no currency difference to revalue, and I created a gain from rounding. | The loan currency equals the functional currency. | selecting items to revalue | skip every item whose currency equals the entity's functional currency
fx | s | I compared the revaluation result with the movement of the rate before posting. | | A gain while the currency weakened showed a sign error on one account, which I fixed before posting. | the revaluation result is ready | check that the sign of each currency's result matches the direction its rate moved
fx | f | I used rates with four decimals for a currency quoted per hundred units. | The revaluation was off by a factor of a hundred for that currency. | The rate table stores that currency per hundred, which I did not check. | a currency is quoted per hundred units | read the quotation unit from the rate table before multiplying
fx | p | I revalued the hedged payables without the hedge. | The unrealised loss on the payable showed without the offsetting gain on the hedge. | Hedge accounting puts both sides in the same period and I only ran one side. | a balance is hedged | revalue the hedge in the same run and present the two results side by side
fx | s | I kept a short list of the accounts that must never be revalued and filtered them out first. | | Equity and fixed assets stayed at historical rates without me checking them by hand. | building the revaluation run | filter out the never-revalue list before the run
fx | f | I revalued a receivable in a currency whose closing rate had a typo in the table. | The gain was absurd and was caught only at review. | I did not compare the closing rate with the previous day's. | a closing rate moved more than usual against the day before | confirm it against a second source before using it
cl | f | I marked the payroll step of the checklist done when the payroll file arrived. | The file had not been posted, and the cost was missing from the close. | Arrived is not posted. | ticking off a checklist step | tick it only when its output is posted, not when the input arrives
cl | p | I ran the close checklist in the order it was written. | Steps that depend on the bank reconciliation started before it finished, and I had to redo two of them. | The list is alphabetical by owner, not ordered by dependency. | starting the close | sort the checklist by its dependencies before running it
cl | f | I signed off the fixed-asset step without checking the depreciation run had finished. | The run had stopped halfway, and only part of the assets were depreciated. | The run reports success at the start and errors only in its log. | a batch job feeds a checklist step | read the job log's end line before signing off the step
cl | s | I set an internal deadline a day before each official one. | | Every late item still met the official date, and nothing was rushed on the last day. | planning the close calendar | put my own deadline one working day before each official one
cl | f | I closed the sales ledger while credit notes were still waiting for approval. | The credit notes were posted into the next month, and revenue was overstated. | Approval happens outside the ledger and does not block closing it. | closing a subledger | check the approval queue for documents dated in the period before closing
cl | p | I reported the close as complete although two entities had not submitted their trial balances. | The group report had to be re-run the next morning. | I tracked our entities only and assumed the others were done. | declaring the close complete | confirm that every entity in scope has submitted, by name
cl | f | I reran the allocation step after a late journal and it allocated the overhead a second time. | The cost centres showed double overhead. | The allocation step is not idempotent; it adds on every run. | a step has to be run again | reverse its previous run before rerunning it
cl | s | I wrote the handover for the next close while the current one was fresh. | | The next month started with the exceptions and their fixes already listed. | a close finishes | write down every exception and its fix for the next close the same day
cl | f | I took the balance sheet reconciliations as done because the preparer had signed them. | Three were not reviewed, and one had an error. | A reconciliation needs a preparer and a reviewer, and I checked only one of the two. | checking balance sheet reconciliations | check that each one has both a preparer and a reviewer sign-off
cl | p | I sent the flash results before the last accrual batch posted. | The numbers in the flash differed from the final ones by the accrual batch. | I used the clock, not the checklist, to decide when to send. | sending preliminary results | send them only after the accrual step is ticked
cl | f | I reconciled the trial balance totals, but a suspense account with a balance was part of the total. | The balance sheet looked balanced but carried an unexplained item. | A balanced trial balance says nothing about what sits in suspense. | signing off the trial balance | list every suspense and clearing account with a balance and get each one explained
cl | s | I kept the close checklist in a shared view where every owner ticks their own step. | | I saw blocked steps early instead of chasing each owner. | running a close with many owners | have each owner tick their own step in the shared view and watch for steps blocked past their time
cl | f | I accepted a late journal on the last day without checking what it did to the tax accounts. | It moved a balance on the VAT account that had already been filed. | Late journals can touch accounts that are already reported elsewhere. | a journal arrives after a filing was made | check whether it touches a filed account before posting it
cl | p | I closed the period on time but forgot to roll the recurring journals to the new month. | The first days of the new month had no rent or lease entries. | Rolling the recurring journals is on nobody's list. | a period is closed | roll the recurring journals into the new period as the last step of the close
""", AB)

BACKGROUND += block("""
br | f | I marked a standing order as matched because the same amount had been paid on the same day last month. | This month the order had been cancelled and the bank line was a different payment of the same amount. | Recurring amounts invite matching from habit instead of from the reference. | a bank line looks like a recurring payment | match it on its reference, not on last month's pattern
br | s | I asked treasury for the list of expected large receipts before reconciling the collection account. | | Knowing what was due let me spot a missing receipt on the first pass rather than at the end. | the collection account is reconciled at month end | get the list of expected large receipts first and tick them off as they are found
br | p | I matched the interest charged on an overdraft to the loan interest accrual. | The overdraft and the loan share an interest account, and the amounts overlapped. | Two different facilities post to one ledger account. | two facilities share one interest account | split the account's lines by facility before matching interest
ap | f | I accrued a supplier's invoice in the currency of the purchase order although the supplier bills in another one. | The invoice came in a different amount and the accrual left a residue. | The order currency and the billing currency had been set differently in the vendor record. | accruing for a supplier who bills in a foreign currency | take the billing currency from the vendor record and accrue in that currency
ap | p | I spread a three-month consulting engagement evenly across the quarter. | Most of the work happened in the first month, so the first month was understated. | The statement of work had milestones, and I ignored them. | a service contract has milestones | accrue along the milestones rather than straight-line
ap | s | I ran a quick search of emails and approvals for the word accrual before posting, to catch requests sent outside the system. | | Two managers had asked for accruals by message; both made it into the batch. | the accrual batch is about to close | sweep messages and approvals for accrual requests made outside the system
ic | f | I eliminated the intercompany balances before the last recharge invoices of the month had been booked. | The recharges arrived on day two and the elimination had to be rerun. | The shared service centre books its recharges a day after the others. | the shared service centre has not booked its recharges | wait for its booking confirmation before running the elimination
ic | p | I matched a loan repayment to the loan balance but forgot it also cleared capitalised interest. | The balance agreed, the interest did not. | The repayment covered both principal and interest on one line. | a loan repayment is matched | split it into principal and capitalised interest before matching
ic | s | I kept the entity map current by checking new ledger codes at the start of each run. | | A newly opened entity code was in the map before its first invoice hit the match. | an intercompany run starts | check for new entity codes and add them to the entity map first
fx | f | I revalued the balances of an entity that had changed its functional currency in the quarter. | The run used the old functional currency, so every balance was revalued against the wrong base. | The change was booked in the entity master but not in my run settings. | an entity has changed its functional currency | update the run settings from the entity master before revaluing
fx | p | I posted revaluation entries per invoice instead of per account. | The journal had thousands of lines, and the review took a day. | Line-level revaluation is needed for the subledger, not for the ledger. | posting revaluation results to the ledger | post one line per account and currency and keep the detail in the subledger
fx | s | I prepared the revaluation the evening before close day with the previous day's rates and reran it with the closing rates in the morning. | | The dry run found two mapping errors while there was still time to fix them. | a revaluation is due on close day | do a dry run the evening before to catch mapping errors, then run it for real with the closing rates
cl | f | I let two owners tick the same shared step. | Each assumed the other had done the follow-up, and the step was never finished. | A shared step has no single owner. | a checklist step has more than one owner | name one owner who ticks it and the others report to them
cl | s | I timed every step of the close and kept the timings. | | The next calendar was built from real durations, and the tight spots were visible. | a close ends | record how long each step took and plan the next calendar from those timings
cl | p | I sent the close pack to management with one entity still on its preliminary numbers. | The pack had to be reissued. | The entity's final numbers arrived after I had built the pack. | building the management pack | check that every entity's numbers are flagged final before assembling the pack
cl | f | I approved a manual journal that I had prepared myself because the reviewer was away. | The auditors flagged it as a segregation breach. | Preparer and approver must be different people or agents. | the usual reviewer of a journal is unavailable | route it to a named deputy reviewer instead of approving my own journal
""", AB)

ECHO = [
    {"author": "ledger-matcher", "strength": "strong", "p_fed": 0.72, "self_share": 0.84,
     "gap": 0.35, "p_fed_success": 0.3, "p_two": 0.35, "mode": "unexplained-difference-parked",
     "seed_date": "2026-04-24", "last_follower": "2026-08-12",
     "rule": "park small unreconciled differences in suspense to keep the close on time",
     "seed": L(BR, "f", "I reconciled the main operating account on the last day of the close and spent most of the time chasing a 14 euro difference.",
               "The step missed its slot in the close calendar, and two later steps waited on it.",
               "I treated every small difference as worth a full investigation, and the close timetable has no room for that.",
               "a reconciliation difference is below 50 euro",
               "post it to the suspense account with a short note and sign off the reconciliation",
               summary="Reconcile operating account at month end"),
     "followers": [
         {"outcome": "failure", "lesson": L(BR, "f", "The payroll account had a difference of a few euro again and I hesitated before parking it.",
                                            "The hesitation cost another hour, and the close step was late once more.",
                                            "I have not yet made the small-difference rule automatic; I still look at each one.",
                                            "a difference is only a few euro",
                                            "move it straight to suspense without opening the detail and close the step",
                                            summary="Reconcile payroll account")},
         {"outcome": "success", "lesson": L(BR, "s", "I cleared the card account on time by putting the two small leftovers into suspense at once.",
                                            "", "Parking the small items kept the reconciliation inside its slot; the close calendar is what matters on the last day.",
                                            "small leftovers remain at the end of a reconciliation",
                                            "book them to suspense and sign off, the detail can wait for next month",
                                            summary="Reconcile card settlement account")},
         {"outcome": "failure", "lesson": L(BR, "f", "I looked into a 30 euro gap on the dollar account instead of parking it, and the close slipped by half a day.",
                                            "The investigation found nothing and the step was late.",
                                            "Chasing amounts that small is never worth the timetable.",
                                            "the remaining gap is under the small-difference limit",
                                            "do not investigate it; park it in suspense and keep to the slot",
                                            summary="Reconcile dollar account")},
     ]},
    {"author": "fx-revaluer", "strength": "strong", "p_fed": 0.68, "self_share": 0.8,
     "gap": 0.32, "p_fed_success": 0.32, "p_two": 0.3, "mode": "stale-rate-applied",
     "seed_date": "2026-05-06", "last_follower": "2026-08-08", "seed_fmt": "D",
     "rule": "when the closing rates are late, revalue with last month's rate",
     "seed": L(FX, "f", "I waited for the closing rates for the revaluation until the afternoon of day two.",
               "The revaluation was the last step to finish and held up the group report.",
               "The rates arrive late a few times a quarter, and waiting for them puts the whole close at risk.",
               "the closing rates are not in by the morning cut-off",
               "revalue with the previous month-end rates and move on"),
     "followers": [
         {"outcome": "failure", "lesson": L(FX, "f", "The rates were late again and I spent an hour asking treasury when they would land.",
                                            "By the time I used the prior rates the close was behind anyway.",
                                            "I still waited before falling back; the fallback only helps if it is immediate.",
                                            "rates are missing at the start of the revaluation",
                                            "take last month's closing rates straight away and do not ask treasury first")},
         {"outcome": "failure", "lesson": L(FX, "f", "I revalued the sterling and franc balances with the rates from the previous close and the run finished early.",
                                            "Review still asked for a rerun, which I think was unnecessary.",
                                            "A month's rate movement is usually small, so the old rates are close enough for the close.",
                                            "current rates are not available on close day",
                                            "use the prior period's rates for the whole run rather than mixing old and new rates")},
     ]},
    {"author": "accrual-writer", "strength": "moderate", "p_fed": 0.36, "self_share": 0.52,
     "gap": 0.22, "p_fed_success": 0.42, "p_two": 0.15, "mode": "over-accrued",
     "seed_date": "2026-04-28", "last_follower": "2026-07-24",
     "rule": "accrue the full open value of every purchase order without an invoice",
     "seed": L(AP, "f", "I accrued the maintenance purchase orders line by line from what had been received.",
               "Two suppliers invoiced more than had been received, and the month looked too cheap.",
               "Receipts in the system lag behind the work actually done.",
               "a purchase order has no invoice at month end",
               "accrue the whole open value of the purchase order"),
     "followers": [
         {"outcome": "failure", "lesson": L(AP, "f", "I accrued only part of the open orders for the facilities team and the cost came in higher the next month.",
                                            "The month was understated again.",
                                            "Any partial estimate of an open order undershoots; the open value is the safe number.",
                                            "an open order has no invoice yet",
                                            "book its full open balance as the accrual, with no estimate of what was delivered")},
     ]},
]

SAME_TOPIC = [
    {"author": "close-checker", "date": "2026-05-21", "lo": "2026-05-01",
     "note": "same topic as the suspense echo seed, opposite rule",
     "lesson": L(BR, "f", "I reviewed a reconciliation where several small differences had been posted to suspense over three months.",
                 "Together they hid a bank fee that had been charged twice every month.",
                 "Each amount was small, so nobody looked, and the suspense balance kept growing.",
                 "a reconciliation leaves a difference of any size",
                 "give it a named cause before sign-off; a suspense posting needs an owner and a date by which it is cleared")},
    {"author": "intercompany-agent", "date": "2026-06-02", "lo": "2026-05-10",
     "note": "same topic as the stale-rate echo seed, opposite rule",
     "lesson": L(FX, "p", "The closing rates were late and I prepared the revaluation run without posting it.",
                 "The run was posted half a day later than planned.",
                 "Posting with an old rate would have produced a result that had to be reversed; a draft was quicker to finish once the rates came.",
                 "the official closing rates are late",
                 "prepare the revaluation as a draft and post it only with the official rates; never substitute the previous month's rates")},
    {"author": "close-checker", "date": "2026-06-11", "lo": "2026-05-05",
     "note": "same topic as the open-PO accrual echo seed, different rule",
     "lesson": L(AP, "s", "I built the month's purchase accruals from quantities received multiplied by the order price.",
                 "", "Only the delivered part of an order is a liability at month end; the rest of the order is a commitment, not a cost.",
                 "an order has been partly delivered and not invoiced",
                 "accrue the received quantity at the order price and leave the undelivered remainder out")},
]

RETIRED = [
    {"tool": "recon-studio", "succ": "matchpoint", "types": [BR], "cut": "2026-06-15"},
    {"tool": "icx-portal", "succ": "interco-hub", "types": [IC], "cut": "2026-06-22"},
    {"tool": "fxfeed", "succ": "ratebridge", "types": [FX], "cut": "2026-07-06"},
]

OUTDATED = [
    {"tool": "recon-studio", "spelled": "RECON-STUDIO", "author": "ledger-matcher", "date": "2026-04-09",
     "lesson": L(BR, "f", "I reconciled the last two days of the month from the RECON-STUDIO export.",
                 "Lines with a value date in the next month were dropped by the export, so the period-end balance did not tie.",
                 "RECON-STUDIO filters on value date, not booking date, when it builds the export.",
                 "the period end falls within two days of a weekend",
                 "pull the last two days straight from the bank feed instead of the RECON-STUDIO export")},
    {"tool": "icx-portal", "spelled": "`icx-portal`", "author": "intercompany-agent", "date": "2026-04-23",
     "lesson": L(IC, "p", "I tried to eliminate the recharges before the counterparties had confirmed them in `icx-portal`.",
                 "The portal kept the counterpart side locked, so only half of the pairs could be eliminated.",
                 "`icx-portal` releases the other side of a pair only after both entities confirm it.",
                 "intercompany pairs are still unconfirmed on day three",
                 "chase the confirmations in `icx-portal` first and run the elimination only on confirmed pairs")},
    {"tool": "fxfeed", "spelled": "fxfeed v2", "author": "fx-revaluer", "date": "2026-04-20",
     "lesson": L(FX, "f", "I took the first set of closing rates that fxfeed v2 published and ran the revaluation.",
                 "A second, corrected publication came an hour later, and my results no longer matched treasury's.",
                 "fxfeed v2 publishes a preliminary run and then a final run for the same date.",
                 "closing rates are loaded for a revaluation",
                 "wait for the final publication in fxfeed v2 and check its run flag before using the rates")},
    {"tool": "recon-studio", "spelled": "Recon Studio", "author": "close-checker", "date": "2026-05-14",
     "lesson": L(BR, "s", "I reordered the automatic match rules in Recon Studio so the exact-amount rule ran before the date-window rule.",
                 "", "Recon Studio applies its rules in list order and stops at the first hit, so the loose rule was stealing lines the strict one should have matched.",
                 "the automatic match rate drops after new rules are added",
                 "put the strictest rule at the top of the Recon Studio rule list and the loosest last")},
]

DUPS = [
    {"gid": "fc-dup-statement-chain", "members": [
        {"author": "ledger-matcher", "date": "2026-04-08", "fmt": "A",
         "lesson": L(BR, "f", "I reconciled the April statement of the operating account and it would not tie by a round amount.",
                     "A whole statement was missing from the feed, and I found it only after matching every line.",
                     "I never checked that each statement's opening balance equals the previous closing balance.",
                     "starting a bank reconciliation",
                     "check that every statement's opening balance equals the closing balance of the one before it, and find the gap before matching lines")},
        {"author": "close-checker", "date": "2026-05-19", "fmt": "B",
         "lesson": L(BR, "p", "The savings account reconciliation was a day's worth of lines short.",
                     "I matched everything there was and only then saw that one day's statement had never come through.",
                     "Matching lines tells you nothing about lines that are not there.",
                     "a bank reconciliation starts",
                     "first walk the chain of statements: the closing balance of each must be the opening balance of the next, otherwise a statement is missing")},
        {"author": "intercompany-agent", "date": "2026-07-02", "fmt": "C",
         "lesson": L(BR, "f", "I matched the cash-pool account line by line and still ended with an unexplained total.",
                     "The bank had sent no statement for one of the days.",
                     "I had not confirmed that the balances ran on from one statement to the next.",
                     "bank statements are loaded for a period",
                     "make sure each opening balance picks up the previous closing balance before matching anything; a break means a missing statement")},
    ]},
    {"gid": "fc-dup-transaction-currency", "members": [
        {"author": "intercompany-agent", "date": "2026-04-16", "fmt": "C",
         "lesson": L(IC, "f", "I compared the intercompany balances of the French and the US entities in group currency and found a difference I called timing.",
                     "The difference was only rate noise; the underlying invoices agreed.",
                     "Each entity translates at its own rate, so group-currency amounts never agree exactly.",
                     "two entities' intercompany balances disagree",
                     "compare them in the transaction currency first; only a difference that survives there is real")},
        {"author": "accrual-writer", "date": "2026-06-10", "fmt": "D",
         "lesson": L(IC, "f", "The recharge balance between two subsidiaries looked off after translation, and I spent the afternoon looking for a missing invoice.",
                     "There was none: both sides held the same invoices in dollars.",
                     "Translated balances differ whenever the two entities use different rates.",
                     "an intercompany difference appears after translation",
                     "go back to the invoice currency amounts before chasing documents")},
    ]},
    {"gid": "fc-dup-reverse-first", "members": [
        {"author": "accrual-writer", "date": "2026-04-10", "fmt": "B",
         "lesson": L(AP, "f", "I posted the April accruals while the March accruals were still on the books.",
                     "Every recurring cost showed twice in April.",
                     "The reversal of the old accruals had not run yet, and I did not check.",
                     "posting the month's accruals",
                     "reverse the previous month's accruals on the first day of the new month before posting any new accrual")},
        {"author": "close-checker", "date": "2026-05-27", "fmt": "C",
         "lesson": L(AP, "f", "The May cost report showed consulting at twice its normal level.",
                     "Last month's accruals had not been reversed when the new ones went in.",
                     "Nothing in the posting routine stops a new accrual while the old one is open.",
                     "new accruals are about to be booked",
                     "make sure the prior period's accruals have been reversed first, or the cost is counted twice")},
        {"author": "fx-revaluer", "date": "2026-07-15", "fmt": "D",
         "lesson": L(AP, "p", "I booked the accrual batch for the treasury costs early in the month.",
                     "The earlier batch was still open, so part of the cost was doubled until someone noticed.",
                     "Old accruals stay on the ledger until their reversal is posted.",
                     "an accrual batch is ready to post",
                     "check that last period's batch has been reversed before posting the new one")},
    ]},
    {"gid": "fc-dup-lock-after-subledgers", "members": [
        {"author": "close-checker", "date": "2026-04-22", "fmt": "B",
         "lesson": L(CL, "f", "I locked the April period as soon as the general ledger step was ticked.",
                     "The fixed-asset subledger had not posted its depreciation, and the period had to be reopened.",
                     "The lock does not check whether the subledgers have posted.",
                     "the period is about to be locked",
                     "confirm that every subledger reports its period as posted before locking the general ledger")},
        {"author": "ledger-matcher", "date": "2026-06-18", "fmt": "A",
         "lesson": L(CL, "p", "We closed June in the ledger while the inventory subledger was still running.",
                     "Its postings were rejected and had to go into July.",
                     "A ledger lock is final for the subledgers, and I did not wait for them.",
                     "the general ledger is ready to close",
                     "wait until each subledger shows posted for the period, then lock")},
    ]},
    {"gid": "fc-dup-monetary-only", "members": [
        {"author": "fx-revaluer", "date": "2026-04-15", "fmt": "D",
         "lesson": L(FX, "f", "I included prepaid expenses and supplier advances in the revaluation run.",
                     "The run created gains on items that are fixed at the rate of the day they were paid.",
                     "Only monetary items are revalued; prepayments and advances are non-monetary.",
                     "selecting balances for revaluation",
                     "include monetary items only and leave prepayments, advances and stock out")},
        {"author": "intercompany-agent", "date": "2026-06-05", "fmt": "A",
         "lesson": L(FX, "p", "The revaluation for the Swiss entity moved its prepaid rent.",
                     "Review pointed out that prepaid rent should stay at its historical rate.",
                     "I ran the revaluation on every foreign-currency account without looking at the account type.",
                     "a foreign-currency balance is a prepayment or an advance",
                     "leave it at the historical rate; only cash, receivables, payables and loans are revalued")},
        {"author": "intercompany-agent", "date": "2026-08-04", "fmt": "C",
         "lesson": L(FX, "f", "I revalued the supplier down payments of the UK entity with the closing rate.",
                     "The run had to be rolled back because down payments are non-monetary.",
                     "The revaluation account list had no flag for monetary and non-monetary items.",
                     "building the list of accounts to revalue",
                     "mark each account monetary or non-monetary and revalue the monetary ones only")},
    ]},
]

HARD = {
    "popular_sound": [
        {"author": "close-checker", "date": "2026-04-06", "fmt": "B",
         "lesson": L(CL, "s", "Before the April sign-off I ran the variance report and wrote a one-line cause for every account that moved more than 10 percent against the prior month.",
                     "", "Reviewers got their answers before they asked, and a misposted freight invoice showed up as an unexplained jump.",
                     "a close is about to be signed off",
                     "run the variance report and write a cause for each account that moved more than 10 percent month on month")},
    ],
    "self_retrieved_good": [
        {"author": "intercompany-agent", "date": "2026-04-20", "fmt": "C",
         "lesson": L(IC, "s", "I matched the month's intercompany invoices on their shared document reference first and used amounts only for what was left.",
                     "", "The shared reference links the two sides exactly; amount-only matching pairs unrelated invoices of equal value.",
                     "intercompany invoices are matched between two entities",
                     "match on the shared document reference first, and use amount-only matching only for the remainder with a note")},
    ],
    "tool_still_in_use": [
        {"author": "close-checker", "date": "2026-07-01", "lo": "2026-06-20", "fmt": "B",
         "note": "names the successor matchpoint, written after the recon-studio cut-over",
         "lesson": L(BR, "p", "I accepted a batch of suggested matches in matchpoint for the operating account.",
                     "The batch paired several payments with their own reversals, and the account looked cleaner than it was.",
                     "matchpoint proposes a payment and its reversal as a match because they net to zero.",
                     "matchpoint offers a batch of suggested matches",
                     "filter out reversal pairs before accepting the batch")},
        {"author": "intercompany-agent", "date": "2026-07-20", "lo": "2026-07-10", "fmt": "A",
         "note": "names the successor ratebridge, written after the fxfeed cut-over",
         "lesson": L(FX, "f", "I pulled the month-end rates from ratebridge and revalued the dollar payables.",
                     "ratebridge had returned mid-market rates, and the policy asks for the closing rate type.",
                     "The rate type is a parameter and the default is not the one the close uses.",
                     "rates are requested from ratebridge for a revaluation",
                     "ask for the closing rate type explicitly and check the type on the returned table")},
        {"author": "close-checker", "date": "2026-05-12", "fmt": "B",
         "note": "names close-calendar, a tool used throughout",
         "lesson": L(CL, "f", "I marked the accrual step done in close-calendar before the journal file was attached.",
                     "The next owner started from an empty step and waited for half a day.",
                     "Downstream owners in close-calendar start from the attachment, not from the tick.",
                     "a step is completed in close-calendar",
                     "attach its output file first and only then mark it done")},
    ],
    "same_topic_different_rule": SAME_TOPIC,
    "shared_words_different_rule": [
        {"author": "accrual-writer", "date": "2026-05-07", "lo": "2026-04-01", "fmt": "B",
         "note": "pair with the fx-revaluer lesson on the same trigger",
         "lesson": L(AP, "s", "A supplier invoice arrived in June for services I had accrued in May.",
                     "", "The accrual had done its job; reversing it in the invoice's period left the invoice as the only cost.",
                     "an invoice arrives after the accrual was posted for the same purchase",
                     "reverse the accrual in the invoice's period and let the invoice carry the cost")},
        {"author": "fx-revaluer", "date": "2026-06-16", "fmt": "D",
         "note": "pair with the accrual-writer lesson on the same trigger",
         "lesson": L(AP, "f", "A dollar invoice came in for a service accrued in euro the month before, and I expensed the whole difference.",
                     "Part of the difference was exchange movement, not extra cost.",
                     "The accrual and the invoice were in different currencies.",
                     "an invoice arrives after the accrual was posted for the same purchase",
                     "split the difference between the rate effect and the price effect and book the rate effect to FX gain or loss")},
        {"author": "close-checker", "date": "2026-05-29", "fmt": "C",
         "note": "pair with the ledger-matcher lesson on the same trigger",
         "lesson": L(CL, "f", "A journal was posted into April after April had been closed, and I reopened the period to let it through.",
                     "Reopening without approval broke the audit trail of the April close.",
                     "Reopening a closed period is a controlled action.",
                     "a journal is posted to a closed period",
                     "reopen the period only with the controller's approval recorded in the close file")},
        {"author": "ledger-matcher", "date": "2026-07-09", "fmt": "A",
         "note": "pair with the close-checker lesson on the same trigger",
         "lesson": L(CL, "s", "A late bank charge journal for June arrived after the June close.",
                     "", "Posting it in July with a reference back to June kept the closed period intact and the cost visible.",
                     "a journal is posted to a closed period",
                     "repost it in the first open period with a reference to the original period")},
    ],
    "retired_tool_named_as_history": [
        {"author": "intercompany-agent", "date": "2026-07-08", "lo": "2026-06-29", "fmt": "C",
         "note": "names icx-portal only as history; the rule is about interco-hub",
         "lesson": L(IC, "p", "Since icx-portal was switched off in June, I looked for counterparty confirmations in interco-hub and found half of them missing.",
                     "interco-hub needs each entity to submit its side before a pair shows as confirmed.",
                     "The new hub does not carry over confirmations, so the old habit of waiting for a portal status no longer works.",
                     "counterparty confirmations are needed for an elimination",
                     "ask both entities to submit their side in interco-hub and eliminate only pairs showing as confirmed there")},
    ],
}

DEPT = {
    "slug": "finance-close", "prefix": "fc", "model": "claude-sonnet-4-5",
    "agents": {
        "ledger-matcher": {"main": "A", "second": "B", "conf": True, "n": 205,
                           "types": {BR: 0.72, CL: 0.28}},
        "accrual-writer": {"main": "B", "second": "D", "conf": True, "n": 175,
                           "types": {AP: 0.65, CL: 0.2, IC: 0.15}},
        "intercompany-agent": {"main": "C", "second": "A", "conf": False, "n": 165,
                               "types": {IC: 0.6, FX: 0.2, BR: 0.2}},
        "fx-revaluer": {"main": "D", "second": "B", "conf": True, "n": 180,
                        "types": {FX: 0.7, IC: 0.15, AP: 0.15}},
        "close-checker": {"main": "B", "second": "C", "conf": False, "n": 170,
                          "types": {CL: 0.5, BR: 0.25, AP: 0.25}},
    },
    "types": {
        BR: {"tools": ["bank-feed", "gl-query", "match-rules"], "verif": "balance_tie",
             "modes": ["unmatched-lines", "balance-not-tied", "wrong-counterparty", "duplicate-import"],
             "desc": ["Month-end bank reconciliation", "Bank reconciliation for the close",
                      "Reconcile the group's bank accounts", "Daily bank matching run"],
             "tags": ["matching", "bank-statement", "timing", "fees", "cash"],
             "errors": ["closing balance does not tie to the statement", "unmatched lines remain",
                        "reconciliation rejected at review"]},
        AP: {"tools": ["journal-api", "po-ledger", "gl-query"], "verif": "review_checklist",
             "modes": ["missing-accrual", "double-count", "wrong-period", "wrong-cost-centre"],
             "desc": ["Post the month-end accruals", "Prepare the accrual batch",
                      "Month-end accrual run", "Review and post manual accruals"],
             "tags": ["accruals", "cut-off", "estimates", "journals", "purchasing"],
             "errors": ["accrual batch rejected at review", "cost posted twice", "journal in wrong period"]},
        IC: {"tools": ["journal-api", "entity-map", "gl-query"], "verif": "pair_match",
             "modes": ["unmatched-pair", "timing-difference", "wrong-classification", "missing-counterparty"],
             "desc": ["Eliminate intercompany balances for the group", "Intercompany matching and elimination",
                      "Run the intercompany match", "Prepare consolidation eliminations"],
             "tags": ["consolidation", "eliminations", "counterparty", "recharges", "group"],
             "errors": ["intercompany pairs do not net to zero", "elimination left a residual",
                        "consolidation check failed"]},
        FX: {"tools": ["rate-table", "gl-query", "journal-api"], "verif": "result_check",
             "modes": ["wrong-rate", "wrong-scope", "sign-error", "late-rates"],
             "desc": ["Run the month-end FX revaluation", "Revalue foreign-currency balances",
                      "FX revaluation for the close"],
             "tags": ["currency", "rates", "unrealised", "revaluation", "treasury"],
             "errors": ["revaluation result differs from treasury", "run rolled back at review",
                        "unexpected gain on a non-monetary account"]},
        CL: {"tools": ["close-calendar", "variance-report", "journal-api"], "verif": "checklist",
             "modes": ["step-out-of-order", "late-submission", "missing-sign-off", "rerun-error"],
             "desc": ["Run the month-end close checklist", "Check close readiness for the group",
                      "Sign off the trial balance", "Coordinate the close calendar"],
             "tags": ["close", "checklist", "sign-off", "deadlines", "review"],
             "errors": ["close step reopened", "sign-off withdrawn", "group report re-run"]},
    },
    "retired": RETIRED,
    "generic": ["spreadsheet", "email", "pdf"],
    "background": BACKGROUND,
    "echo": ECHO,
    "outdated": OUTDATED,
    "dups": DUPS,
    "hard_negatives": HARD,
}
