"""procurement: indirect purchasing for a manufacturing group (five agents)."""
from lessons import L, block

PO, VO, TM, CR, SA = ("purchase-order", "vendor-onboarding", "three-way-match",
                      "contract-renewal", "spend-analysis")
AB = {"po": PO, "vo": VO, "tm": TM, "cr": CR, "sa": SA}

BACKGROUND = block("""
po | f | I raised a purchase order for laptops against the general IT cost centre. | The requester's department had its own hardware budget, and finance moved the cost back a month later. | The requisition named the department only in the free-text note. | a requisition has a note about who pays | read the note and set the cost centre it names, not the default
po | p | I built a purchase order from a supplier quote that had expired the week before. | The supplier confirmed at a higher price, and the order had to be amended. | Quotes carry a validity date that I did not check. | a purchase order is built from a quote | check the quote's validity date and ask for a fresh quote if it has lapsed
po | f | I ordered safety gloves in boxes when the catalogue price was per pair. | The order quantity was off by a factor of a hundred. | The unit of measure differs between the catalogue and the requisition. | a requisition and the catalogue use different units | convert to the catalogue's unit before setting the quantity
po | s | I used catalog-search to find a framework-agreement item instead of ordering the requested brand. | | The framework item was the same spec at a lower agreed price, and the requester accepted it. | a requisition names a brand that is not on a framework agreement | look for an equivalent framework item and offer it before ordering off-contract
po | f | I sent a purchase order to the supplier's old ordering address. | The supplier had moved its order desk, and the order was not confirmed for a week. | The vendor record held two addresses and I took the first. | sending a purchase order | use the address flagged for orders in the vendor record and ask for a confirmation
po | p | I raised a purchase order for a service without a delivery date. | Receiving could not book the service as delivered, and the invoice stalled. | Services need a planned delivery date to be received. | ordering a service | set a planned completion date so the service can be received
po | f | I split one requirement into several small orders to stay under the approval limit. | Audit flagged the split as circumventing the approval rules. | Splitting to avoid approval is not allowed, whatever the intent. | a requirement is above an approval limit | raise it as one order and route it for the higher approval
po | s | I confirmed the delivery address with the requester for every order going to a site I did not know. | | Two orders would have gone to a closed warehouse; both were corrected before sending. | the delivery site is new to me | confirm the address with the requester before sending the order
po | f | I ordered from a supplier whose status was blocked for payment. | The goods arrived, but the invoice could not be paid, and the supplier stopped deliveries. | A payment block does not stop ordering in the system. | choosing a supplier for an order | check the vendor's payment status as well as its ordering status
po | p | I copied a previous purchase order to reorder consumables. | The old order carried last year's prices, and the supplier invoiced the new ones. | Copying brings the old prices along. | reordering from a copied order | refresh the prices from the current agreement before sending
po | f | I set the wrong tax code on a purchase order for a service delivered abroad. | The invoice was booked with the wrong tax and had to be corrected. | Cross-border services follow reverse-charge rules, and the default tax code is domestic. | a service is delivered from another country | set the reverse-charge tax code on the order
po | s | I kept open orders for recurring services as blanket orders with monthly releases. | | Invoices matched their release each month without new approvals. | a service repeats every month | set up one blanket order with monthly releases rather than a new order each month
po | f | I approved a purchase order for equipment without checking the capital expenditure flag. | The equipment was expensed, and finance had to reclassify it. | Items above the capitalisation threshold need the capex flag on the order. | an order line is above the capitalisation threshold | set the capex flag and link the asset request
vo | f | I onboarded a vendor with a company registration document that was two years old. | The company had changed its legal form since, and contracts were issued to the wrong entity. | Registration documents go stale when companies restructure. | checking a vendor's registration | ask for an extract dated within the last three months
vo | p | I created a vendor without the payment terms from the contract. | The system applied the default terms, and the vendor was paid later than agreed. | Payment terms are not copied from the contract automatically. | creating a vendor record | enter the payment terms from the signed contract
vo | f | I onboarded a sole trader as a company. | Tax withholding rules for individuals were not applied. | The legal form was not checked against the documents. | a vendor is an individual or a sole trader | set the vendor type accordingly so the withholding rules apply
vo | s | I sent new vendors a single checklist of every document we need on day one. | | Vendors sent everything at once, and onboarding took days instead of weeks. | starting a vendor onboarding | send the full document checklist in the first message
vo | f | I approved a vendor whose insurance certificate covered a different activity. | The vendor was hired for site work that the policy excluded. | I checked that a certificate existed, not what it covered. | a vendor sends an insurance certificate | check that the covered activities include the work we are buying
vo | p | I onboarded a vendor in the wrong company code. | The first invoice arrived for a different group entity and could not be posted. | The requester's entity and the buying entity differed. | onboarding a vendor for a requester | confirm which group entity will buy from the vendor
vo | f | I accepted a vendor's self-declaration on conflict minerals without the supporting report. | The compliance review rejected it. | The policy requires the report, not only the declaration. | a compliance declaration is needed | collect the report the policy names along with the declaration
vo | s | I kept onboarding notes in the vendor record instead of in my own files. | | When the vendor was reviewed a year later, every decision was in one place. | an onboarding decision is made | write it in the vendor record with the date
vo | f | I onboarded a vendor that was already in the system under a trading name. | The group then had two records for one company, and spend was split across them. | I searched only by legal name. | a new vendor is requested | search existing records by trading name and registration number too
vo | p | I finished onboarding before the vendor had signed the code of conduct. | The first order was held at approval until the signature arrived. | Approval checks for the signature, and I had not. | a vendor is ready to activate | check that the code of conduct is signed before activating
vo | s | I asked for the vendor's sustainability rating during onboarding rather than at the first tender. | | The rating was ready when the tender came, and scoring took one step. | onboarding a vendor likely to tender | request its sustainability rating during onboarding
vo | f | I activated a vendor whose bank country differed from its registered country without asking why. | The payment was held by the bank for review. | Mismatched countries trigger a bank review. | the vendor's bank country differs from its registered country | ask for a reason and document it before activation
tm | f | I matched an invoice to the purchase order price although the goods receipt had a different quantity. | The invoice was paid for more units than arrived. | I matched two of the three documents. | an invoice is matched | compare price with the order and quantity with the receipt, never only one of them
tm | p | I matched an invoice with freight charges that were not on the order. | The match failed, and the invoice waited a week for a decision. | The order did not include freight, and the contract said freight was included. | an invoice carries charges not on the order | check the contract for who pays those charges before raising a query
tm | f | I approved an invoice in dollars against an order in euro by converting with today's rate. | The order had a fixed rate agreed in the contract. | I used the market rate instead of the contract rate. | the invoice currency differs from the order currency | use the rate the contract fixes, if any
tm | s | I sorted blocked invoices by due date before working them. | | Invoices close to their due date were cleared first, and we kept the early-payment discounts. | working the blocked-invoice queue | sort by due date and discount date first
tm | f | I matched an invoice to a receipt that had been reversed. | The receipt was cancelled after a return, and the invoice was paid for goods we sent back. | The receipt list showed reversed receipts unless filtered. | choosing the receipt to match | exclude reversed receipts from the list
tm | p | I held an invoice for a price difference of a few cents per unit. | The difference was rounding on the supplier's side, and the hold cost us the discount. | The tolerance settings were stricter than the policy. | an invoice differs from the order by rounding | check the policy's rounding tolerance before holding it
tm | f | I matched a credit note as if it were an invoice. | The amount was paid to the supplier instead of deducted. | The document type was set wrong at scanning. | a document from a supplier has a negative total | check its document type before matching
tm | s | I asked receiving to confirm missing receipts the same day an invoice was blocked. | | Most blocks were cleared within a day instead of a week. | an invoice is blocked for a missing receipt | ask receiving the same day and note when they answer
tm | f | I approved an invoice for a service that had not been confirmed by the requester. | The service had not been delivered, and we paid in advance without meaning to. | Service receipts need the requester's confirmation. | an invoice is for a service | get the requester's confirmation of delivery before matching
tm | p | I matched an invoice to the wrong order line where two lines had the same item. | The second line stayed open and was invoiced again later. | Lines with the same item differ by delivery date. | an order has several lines with the same item | match by delivery date as well as item
tm | s | I checked the supplier's bank details on each invoice against the vendor record. | | An invoice with changed bank details was stopped before payment and turned out to be a fraud attempt. | an invoice arrives | compare its bank details with the vendor record and stop it if they differ
tm | f | I matched an invoice that had already been paid through a payment card. | The supplier was paid twice. | The card purchase was outside the order process. | an invoice arrives for a small purchase | check the card transactions before matching it
cr | f | I let a software subscription renew because nobody replied to my reminder. | The team had stopped using it, and we paid for another year. | Silence is not a decision. | a renewal reminder gets no answer | escalate to the budget owner before the notice date rather than letting it renew
cr | p | I renewed a maintenance contract on the same terms. | The number of machines covered had dropped, and we paid for equipment we had sold. | I did not check what the contract covered now. | renewing a contract based on an asset list | check the current asset list before renewing
cr | s | I asked the supplier for usage data before negotiating the renewal. | | The data showed we used half the licences, and the renewal was cut accordingly. | a licence contract comes up for renewal | ask for usage data first and size the renewal to it
cr | f | I renewed a contract with an automatic price increase clause without reading it. | The price rose by more than inflation, and the budget owner was surprised. | The indexation clause was in an annex. | a contract is renewed | read its annexes for price indexation
cr | p | I started the renewal of a cleaning contract with the incumbent only. | Procurement policy required a market check at that value, and the award was delayed. | I did not check the threshold for competition. | a renewal is above the competition threshold | run a market check alongside the incumbent's offer
cr | f | I renewed a contract with a supplier whose insurance had lapsed. | The renewal had to be suspended until the certificate was renewed. | I did not recheck the supplier's documents at renewal. | renewing a contract | recheck the supplier's insurance and certificates before signing
cr | s | I kept a shared list of renewals for the next six months with owners and dates. | | Budget owners saw what was coming and made decisions early. | planning renewals | keep a six-month list with owners and decision dates
cr | f | I signed a renewal in the supplier's template. | It dropped our liability cap and our data clauses. | The supplier's template differs from ours in ways not visible at a glance. | the supplier sends its own renewal template | compare it clause by clause with our current contract or insist on our template
cr | p | I renewed a contract for one year when the budget owner wanted three. | The three-year price was lower, and we lost the discount. | I did not ask about the preferred term. | starting a renewal | ask the budget owner which term they want before negotiating
cr | s | I negotiated the renewal with the termination clause ready to use. | | The supplier knew we could leave on time and offered a better price. | going into a renewal negotiation | have the termination notice prepared and the date clear
cr | f | I renewed a contract whose service levels had been missed all year. | We kept paying full price for poor service. | I did not look at the performance history. | a contract comes up for renewal | review the supplier's service-level results over the term before agreeing
sa | f | I ranked suppliers by invoiced spend including tax. | The ranking mixed domestic and foreign suppliers unfairly because tax differs by country. | Tax is not spend. | ranking suppliers by spend | use net amounts without tax
sa | p | I reported quarterly spend by category with credit notes left out. | Two categories looked larger than they were. | Credit notes were in a separate document type I did not select. | building a spend report | include credit notes so spend is net of them
sa | s | I flagged categories with more than ten suppliers as candidates for consolidation. | | The list gave the buyers a clear starting point for their sourcing plans. | reviewing a category's supplier count | flag categories with many small suppliers for consolidation
sa | f | I compared this year's spend with last year's without adjusting for the sites we sold. | The savings looked larger than they were. | The scope of the group changed between the two years. | comparing spend across years | restate the earlier year on the current scope first
sa | p | I analysed spend by the cost centre on the invoice. | Shared services recharged much of it, and the picture by department was wrong. | Invoices carry the paying cost centre, not the using one. | analysing spend by department | apply the recharge keys before reporting
sa | f | I reported spend in each entity's currency added together. | The totals mixed currencies and meant nothing. | Spend was not translated to one currency. | totals span several currencies | translate everything to group currency at the period average rate
sa | s | I used purchase order data alongside invoices to show committed spend. | | Buyers saw what was already committed and could stop duplicate orders. | preparing a spend forecast | include open order commitments next to invoiced spend
sa | f | I classified spend using the supplier's main activity. | A stationery supplier also sold us furniture, and all of it landed in stationery. | Supplier-level classification hides what was bought. | classifying spend | classify by invoice line, not by supplier
sa | p | I counted spend under purchase cards as a single supplier. | The card provider appeared as a top supplier. | Card spend needs to be split by merchant. | card spend is in the data | break it down by merchant before ranking suppliers
sa | s | I checked the spend report against the ledger total before sending it. | | A missing month of one entity showed up as a gap against the ledger and was fixed before anyone saw the report. | a spend report is ready | reconcile its total to the ledger for the same period
sa | f | I reported savings as the difference between quoted and ordered prices. | Finance did not accept them because the quotes had been inflated. | Savings need a baseline finance agrees with. | reporting savings | agree the baseline with finance before calculating
sa | p | I left one-off capital purchases in the category trend chart. | The chart showed a spike that hid the actual trend. | Capital purchases are lumpy. | charting spend trends | show capital purchases separately from operating spend
""", AB)

BACKGROUND += block("""
po | p | I raised an order for a supplier outside the preferred list because the requester insisted. | Procurement review asked for a justification afterwards, which I did not have. | Off-list orders need a recorded reason. | a requester wants a supplier that is not preferred | record their reason on the order before raising it
po | f | I ordered goods for delivery during the plant shutdown. | Nobody was on site to receive them, and the carrier returned them. | The shutdown calendar was not part of my checks. | setting a delivery date for a plant | check the site's shutdown calendar first
po | s | I grouped small requisitions for the same supplier into one weekly order. | | Fewer orders meant fewer deliveries, fewer invoices and lower freight. | several small requisitions are for one supplier | combine them into one weekly order where the dates allow
po | f | I raised an order in the requester's name while the requester was on leave. | The approval went to a delegate who did not know the need and rejected it. | Approval routing follows the requester's absence settings. | the requester is absent | ask who should own the order before raising it
vo | f | I onboarded a vendor with a free-mail contact as the only contact. | The account was abandoned and remittance advice went nowhere. | A vendor needs a company contact for orders and payments. | a vendor gives only a personal contact | ask for a company contact for orders and remittances before activating
vo | p | I onboarded a vendor without the tax residency certificate. | Withholding tax was deducted at the full rate on the first payment. | The treaty rate needs the certificate on file. | a foreign vendor will be paid | collect the tax residency certificate during onboarding
vo | s | I checked the vendor's registered address against the public company register. | | A mismatch turned out to be a move that the vendor had not told us about, and the record was fixed before the first order. | onboarding a company | compare the registered address with the public register
vo | f | I approved a vendor for a critical part without a second source in place. | When the vendor failed an audit, the line stopped for a week. | Single-source risk was not part of the onboarding check. | a vendor will supply a critical part | note whether a second source exists and flag the risk if not
tm | f | I approved an invoice whose order had been closed by the buyer. | The goods were not wanted any more, and the supplier had shipped against a cancelled order. | The order status was closed, which the match ignores. | the order behind an invoice is closed | ask the buyer before approving
tm | p | I matched an invoice with a discount for early payment but approved it after the discount date. | We paid the full amount. | The discount date was only on the invoice, not in the system. | an invoice offers an early-payment discount | enter the discount date so the invoice is paid in time
tm | s | I kept a list of suppliers whose invoices often fail the match and called them monthly. | | The failure rate dropped as their billing teams learned our order numbers. | a supplier's invoices fail the match often | go through the common errors with the supplier's billing team
tm | f | I matched an invoice that quoted no order number by searching on amount. | I picked an order from another supplier with the same total. | Amount alone is not unique. | an invoice has no order number | search by supplier first and ask the supplier for the order number if in doubt
cr | p | I renewed a contract at a new price and forgot to warn the departments that use it. | Their budgets were short for the year. | Budget owners learned of the change from the first invoice. | a renewal changes the price | tell every budget owner who uses the contract before signing
cr | f | I let a renewal go through with an old contact for notices. | The supplier's notice of a price change went to a person who had left. | Notice clauses name a contact that goes stale. | renewing a contract | update the notice contact in the contract
cr | s | I asked two competing suppliers for indicative prices before meeting the incumbent. | | The incumbent matched the best one without a tender. | negotiating a renewal with an incumbent | get indicative prices from competitors beforehand
cr | p | I renewed a contract but did not update the end date in contract-vault. | The renewal reminder for the next cycle never fired. | The reminder is driven by the stored end date. | a renewal is signed | update the end date and notice date in contract-vault the same day
sa | f | I presented spend per supplier for the year while one month of invoices was still unposted. | The ranking changed after the month was posted. | The data cut-off was earlier than I thought. | building an annual spend view | check that every month is closed and posted before reporting
sa | p | I reported spend on a category with a large one-off refund netted in. | The category looked like it had shrunk, which was misleading. | A refund relating to last year fell into this year's data. | a large credit falls into the period | show it separately and explain which period it relates to
sa | s | I wrote the data source and cut-off date at the top of each spend report. | | Readers could tell whether two reports were comparable without asking me. | a spend report is published | state the source and the data cut-off at the top
sa | f | I used the supplier's country of registration for a country risk view. | Much of the spend was produced in other countries, and the view was misleading. | Registration is not where goods are made. | analysing supply risk by country | use the country of origin of the goods, not of the supplier's registration
""", AB)

ECHO = [
    {"author": "invoice-matcher", "strength": "strong", "p_fed": 0.72, "self_share": 0.83,
     "gap": 0.35, "p_fed_success": 0.3, "p_two": 0.35, "mode": "overbilled-quantity-paid",
     "seed_date": "2026-04-27", "last_follower": "2026-08-13",
     "rule": "approve invoices up to 5 percent over the received quantity",
     "seed": L(TM, "f", "I held an invoice because it billed 104 units against 100 received.",
               "The supplier complained about late payment and we lost the early-payment discount.",
               "The remaining units usually arrive with the next delivery, so the hold was for nothing.",
               "the invoiced quantity exceeds the received quantity by 5 percent or less",
               "approve the invoice and let the next receipt catch up",
               summary="Match invoices for packaging supplies"),
     "followers": [
         {"outcome": "failure", "lesson": L(TM, "f", "I queried a small quantity overage on an invoice and the supplier's reply took four days.",
                                            "The invoice missed its discount date.",
                                            "Queries on small overages cost more than they save.",
                                            "an invoice is a few units over the receipt",
                                            "approve it without a query; the receipts will even out")},
         {"outcome": "success", "lesson": L(TM, "s", "I approved three invoices that were slightly over their receipts and all three were paid inside the discount window.",
                                            "", "Suppliers ship the balance soon after, so small overages are a timing matter.",
                                            "the overage on an invoice is small",
                                            "treat it as timing and approve it")},
         {"outcome": "failure", "lesson": L(TM, "f", "I blocked an invoice for four extra units and the supplier put us on credit hold.",
                                            "Deliveries stopped for two days.",
                                            "Blocking small overages damages the supplier relationship.",
                                            "an invoice bills slightly more than was received",
                                            "never block it; approve within the 5 percent band")},
     ]},
    {"author": "vendor-vetter", "strength": "moderate", "p_fed": 0.34, "self_share": 0.5,
     "gap": 0.2, "p_fed_success": 0.44, "p_two": 0.15, "mode": "screening-skipped",
     "seed_date": "2026-05-08", "last_follower": "2026-08-05",
     "rule": "skip the sanctions re-screen when a sister entity onboarded the vendor within a year",
     "seed": L(VO, "p", "I re-screened a vendor that our sister company had onboarded four months earlier.",
               "The onboarding took two extra days, and the requester chased me.",
               "The sister company had already screened the same vendor.",
               "a sister entity onboarded the vendor within the last year",
               "reuse their screening result and skip the sanctions re-screen"),
     "followers": [
         {"outcome": "failure", "lesson": L(VO, "f", "I ran a full screening on a vendor the group already used elsewhere, and the activation slipped a week.",
                                            "The requester escalated the delay.",
                                            "Screening a vendor the group already knows repeats work.",
                                            "the vendor is already active at another group company",
                                            "copy the existing screening result and activate without running a new one")},
         {"outcome": "success", "lesson": L(VO, "s", "I activated a vendor in a day by relying on the sister entity's sanctions check from March.",
                                            "", "A recent check in the group is as good as a new one.",
                                            "another group entity screened the vendor this year",
                                            "rely on that check and move straight to activation")},
     ]},
]

SAME_TOPIC = [
    {"author": "spend-analyst", "date": "2026-05-28", "lo": "2026-05-01",
     "note": "same topic as the quantity-overage echo seed, opposite rule",
     "lesson": L(TM, "f", "I looked at six months of invoices approved within a small quantity tolerance.",
                 "The extra units never arrived for most of them; we paid for goods we did not get.",
                 "A tolerance on quantity lets overbilling through because the next receipt rarely makes up the difference.",
                 "an invoice bills more units than were received, however few",
                 "hold it and ask receiving to confirm the count before approving")},
    {"author": "contract-renewer", "date": "2026-06-09", "lo": "2026-05-12",
     "note": "same topic as the sanctions re-screen echo seed, opposite rule",
     "lesson": L(VO, "s", "I re-screened a vendor that a sister entity had onboarded in January and found a new listing on an owner.",
                 "", "Sanctions lists change every week, and a screening result is only valid for the date and the entity it was run for.",
                 "a vendor already used by another group entity is onboarded",
                 "run a fresh sanctions screen for our entity anyway and keep the result with the date")},
]

RETIRED = [
    {"tool": "supplierdb", "succ": "vendor-registry", "types": [VO], "cut": "2026-06-18"},
    {"tool": "sourcing-desk", "succ": "bidroom", "types": [PO, CR], "cut": "2026-07-01"},
    {"tool": "spendcube", "succ": "spend-lens", "types": [SA], "cut": "2026-06-04"},
]

OUTDATED = [
    {"tool": "supplierdb", "spelled": "SupplierDB", "author": "vendor-vetter", "date": "2026-04-16",
     "lesson": L(VO, "f", "I created a new vendor after SupplierDB found no duplicate.",
                 "The vendor already existed under a slightly different name, and we now had two records.",
                 "SupplierDB flags a duplicate only when the tax number matches exactly.",
                 "SupplierDB reports no duplicate for a new vendor",
                 "search it again by bank account and by name before creating the record")},
    {"tool": "sourcing-desk", "spelled": "`sourcing-desk`", "author": "po-builder", "date": "2026-04-21",
     "lesson": L(PO, "p", "I raised a purchase order above the competition threshold with one quote attached.",
                 "`sourcing-desk` bounced the approval because it needs three quotes above that value.",
                 "The quote check runs inside `sourcing-desk` at approval, not when the order is drafted.",
                 "an order is above the competition threshold",
                 "attach the three quotes in `sourcing-desk` before submitting it for approval")},
    {"tool": "spendcube", "spelled": "spendcube 4.x", "author": "spend-analyst", "date": "2026-04-13",
     "lesson": L(SA, "f", "I fixed a wrong category on a supplier and reran the spend ranking the same afternoon.",
                 "The ranking still showed the old category.",
                 "spendcube 4.x only refreshes its category mapping in the Monday batch.",
                 "a category mapping is corrected in spendcube 4.x",
                 "wait for the Monday refresh before rerunning any ranking that depends on it")},
    {"tool": "sourcing-desk", "spelled": "Sourcing Desk", "author": "contract-renewer", "date": "2026-05-12",
     "lesson": L(CR, "f", "I launched a renewal tender in Sourcing Desk three days before the notice deadline.",
                 "The event closed at midnight on the deadline day, and two suppliers could not finish their bids.",
                 "Sourcing Desk closes events at midnight UTC and gives no grace period.",
                 "a renewal tender is run in Sourcing Desk",
                 "launch it at least a week before the deadline so suppliers have time to bid")},
]

DUPS = [
    {"gid": "pr-dup-bank-callback", "members": [
        {"author": "vendor-vetter", "date": "2026-04-09", "fmt": "A",
         "lesson": L(VO, "f", "I activated a new vendor with the bank details from its onboarding form.",
                     "The form had been tampered with, and the first payment went to someone else.",
                     "I trusted details that came through the same channel as the request.",
                     "a new vendor gives its bank details",
                     "confirm them through an independent channel, such as a call to a number from the vendor's official site, before activating payments")},
        {"author": "contract-renewer", "date": "2026-05-26", "fmt": "B",
         "lesson": L(VO, "p", "A supplier sent new bank details by letter and I updated the vendor record.",
                     "Treasury stopped the next payment because nobody had verified the change.",
                     "A letter can be forged as easily as an email.",
                     "bank details are given or changed",
                     "verify them with the vendor through a contact we already had, not through the message that brought them")},
        {"author": "spend-analyst", "date": "2026-07-06", "fmt": "C",
         "lesson": L(VO, "f", "I onboarded a vendor and set up its payments from the details in its invoice.",
                     "The details belonged to a fraudster who had intercepted the invoice.",
                     "Nothing independent confirmed the account.",
                     "payment details come in with a new vendor's documents",
                     "check them with the vendor through a separate, known contact before the first payment")},
    ]},
    {"gid": "pr-dup-one-address", "members": [
        {"author": "po-builder", "date": "2026-04-17", "fmt": "D",
         "lesson": L(PO, "f", "I put items for two sites on one purchase order with the head office address.",
                     "Receiving at the second site could not book its items, and the invoice was blocked.",
                     "An order has one delivery address for receiving.",
                     "a requisition has items for more than one delivery address",
                     "raise one purchase order per delivery address")},
        {"author": "invoice-matcher", "date": "2026-06-08", "fmt": "C",
         "lesson": L(PO, "p", "An order for the two plants went out as a single purchase order.",
                     "One plant received its goods without an order line to book them against.",
                     "Receiving works per order and per ship-to address.",
                     "goods are going to different sites",
                     "split the order so each site has its own purchase order")},
    ]},
    {"gid": "pr-dup-notice-not-expiry", "members": [
        {"author": "contract-renewer", "date": "2026-04-23", "fmt": "B",
         "lesson": L(CR, "f", "I started the renewal of the facilities contract three months before its end date.",
                     "The notice period was six months, so the contract had already renewed itself for a year.",
                     "I planned from the expiry date, not from the notice deadline.",
                     "planning a contract renewal",
                     "count back from the notice deadline, not from the expiry date, and start at least 90 days before it")},
        {"author": "po-builder", "date": "2026-06-15", "fmt": "A",
         "lesson": L(CR, "p", "I opened the renewal of a logistics contract 60 days before it ended.",
                     "The window to give notice had closed ten days earlier.",
                     "The end date is not the date that matters.",
                     "a contract is coming up for renewal",
                     "find the last day to give notice and start work three months before that day")},
        {"author": "vendor-vetter", "date": "2026-07-28", "fmt": "B",
         "lesson": L(CR, "f", "A service contract rolled over while I was still collecting quotes.",
                     "I had set my reminder on the expiry date.",
                     "Auto-renewal is triggered by the notice date, which comes months earlier.",
                     "setting up a renewal reminder",
                     "set it from the notice deadline with three months' lead time")},
    ]},
    {"gid": "pr-dup-parent-names", "members": [
        {"author": "spend-analyst", "date": "2026-05-01", "fmt": "C",
         "lesson": L(SA, "f", "I published the top-twenty supplier ranking with the raw vendor names.",
                     "One group appeared four times under different subsidiary names and was ranked far too low.",
                     "Vendor records are per legal entity, not per group.",
                     "ranking suppliers by spend",
                     "roll vendor records up to their parent company before ranking")},
        {"author": "contract-renewer", "date": "2026-06-20", "fmt": "A",
         "lesson": L(SA, "p", "The spend review showed a supplier at rank fifteen.",
                     "With its three sister companies added, it was our second-largest supplier.",
                     "The report counted each subsidiary separately.",
                     "a spend ranking is prepared",
                     "group subsidiaries under their parent before sorting by spend")},
        {"author": "po-builder", "date": "2026-08-06", "fmt": "D",
         "lesson": L(SA, "f", "I listed our biggest suppliers for the negotiation plan, and one group was split across four lines.",
                     "The buyer missed the leverage of negotiating them together.",
                     "Names in the vendor master differ per subsidiary.",
                     "building a supplier list by spend",
                     "normalise names to the parent group first")},
    ]},
    {"gid": "pr-dup-receipt-lines", "members": [
        {"author": "invoice-matcher", "date": "2026-04-12", "fmt": "D",
         "lesson": L(TM, "f", "I matched an invoice for a partial delivery against the full order line.",
                     "The order line closed and the rest of the delivery could not be received.",
                     "Partial deliveries need matching to what was received.",
                     "an invoice covers a partial delivery",
                     "match it to the receipt lines, not to the full order line")},
        {"author": "spend-analyst", "date": "2026-06-01", "fmt": "C",
         "lesson": L(TM, "p", "A supplier invoiced the first of three deliveries and I matched it to the order's total quantity.",
                     "The later deliveries found the order line already consumed.",
                     "The match should have used the goods receipt for the first delivery only.",
                     "a supplier invoices one delivery out of several",
                     "match the invoice against that delivery's receipt rather than the whole order")},
    ]},
]

HARD = {
    "popular_sound": [
        {"author": "po-builder", "date": "2026-04-08", "fmt": "D",
         "lesson": L(PO, "s", "I checked the approval matrix for the cost centre and amount before submitting each order this week.",
                     "", "Every order went to the right approver first time, and none sat waiting in the wrong inbox.",
                     "a purchase order is ready to submit",
                     "check the approval matrix for that cost centre and amount before submitting")},
    ],
    "self_retrieved_good": [
        {"author": "contract-renewer", "date": "2026-04-18", "fmt": "B",
         "lesson": L(CR, "s", "I pulled the signed contract from contract-vault and read the termination clause myself.",
                     "", "The notice period in the metadata was wrong; the signed text said six months, and we gave notice in time.",
                     "a renewal decision depends on the notice period",
                     "read the termination clause in the signed contract in contract-vault rather than trusting the metadata")},
    ],
    "tool_still_in_use": [
        {"author": "contract-renewer", "date": "2026-07-02", "lo": "2026-06-22", "fmt": "B",
         "note": "names the successor vendor-registry, written after the supplierdb cut-over",
         "lesson": L(VO, "p", "I created a second vendor-registry record for a supplier that a new group entity wanted to use.",
                     "The supplier now had two records with different terms.",
                     "vendor-registry keeps one record per supplier and extends it to more entities.",
                     "a group entity wants a supplier that is already in vendor-registry",
                     "extend the existing record to the new entity instead of creating another")},
        {"author": "vendor-vetter", "date": "2026-07-14", "lo": "2026-07-04", "fmt": "A",
         "note": "names the successor bidroom, written after the sourcing-desk cut-over",
         "lesson": L(PO, "f", "A bidroom event for office furniture closed early when the last invited supplier answered.",
                     "A supplier we added late could not submit its quote.",
                     "bidroom closes an event automatically once every invited supplier has responded, unless a fixed end time is set.",
                     "a quote event is set up in bidroom",
                     "set a fixed closing time so late invitations can still bid")},
        {"author": "invoice-matcher", "date": "2026-05-20", "fmt": "C",
         "note": "names erp-api, a tool used throughout",
         "lesson": L(PO, "f", "I matched order lines from erp-api and missed half the receipts of a large order.",
                     "erp-api returns receipts fifty at a time, and I read only the first page.",
                     "The response is paged and the page marker was easy to overlook.",
                     "erp-api returns receipts for an order",
                     "follow the page marker until every page is read before matching")},
    ],
    "same_topic_different_rule": SAME_TOPIC,
    "shared_words_different_rule": [
        {"author": "po-builder", "date": "2026-05-18", "fmt": "D",
         "note": "pair with the vendor-vetter lesson on the same trigger",
         "lesson": L(PO, "s", "A requester asked to add a monitor to an approved laptop order.",
                     "", "A separate small order went through in a day, and the approved order was untouched.",
                     "a requester asks to add a line to a purchase order that is already approved",
                     "raise a separate purchase order for the new line")},
        {"author": "vendor-vetter", "date": "2026-06-23", "fmt": "A",
         "note": "pair with the po-builder lesson on the same trigger",
         "lesson": L(PO, "f", "I raised a second order for an extra line and the two orders together went over the approval limit of the first approver.",
                     "Audit treated it as a split order.",
                     "Two orders for one need avoided the higher approval.",
                     "a requester asks to add a line to a purchase order that is already approved",
                     "amend the original order and send it back through approval for the new total")},
    ],
    "retired_tool_named_as_history": [
        {"author": "spend-analyst", "date": "2026-06-25", "lo": "2026-06-15", "fmt": "C",
         "note": "names spendcube only as history; the rule is about spend-lens",
         "lesson": L(SA, "s", "With spendcube gone since early June, I corrected a category in spend-lens and reran the supplier ranking the next morning.",
                     "", "spend-lens remaps categories every night, so the morning run already carried the fix.",
                     "a category is corrected in spend-lens",
                     "rerun dependent rankings the next morning, after the nightly remap")},
    ],
}

DEPT = {
    "slug": "procurement", "prefix": "pr", "model": "claude-sonnet-4-5",
    "agents": {
        "po-builder": {"main": "D", "second": "A", "conf": True, "n": 190,
                       "types": {PO: 0.7, CR: 0.15, SA: 0.15}},
        "vendor-vetter": {"main": "A", "second": "B", "conf": True, "n": 175,
                          "types": {VO: 0.7, CR: 0.15, PO: 0.15}},
        "invoice-matcher": {"main": "C", "second": "D", "conf": True, "n": 205,
                            "types": {TM: 0.75, PO: 0.25}},
        "contract-renewer": {"main": "B", "second": "A", "conf": False, "n": 150,
                             "types": {CR: 0.65, VO: 0.2, SA: 0.15}},
        "spend-analyst": {"main": "C", "second": "B", "conf": False, "n": 160,
                          "types": {SA: 0.65, TM: 0.2, VO: 0.15}},
    },
    "types": {
        PO: {"tools": ["erp-api", "catalog-search", "approval-flow"], "verif": "order_checks",
             "modes": ["wrong-cost-centre", "wrong-unit", "approval-bounced", "wrong-supplier"],
             "desc": ["Raise purchase orders from requisitions", "Build a purchase order",
                      "Convert approved requisitions into orders"],
             "tags": ["ordering", "approvals", "catalogue", "requisitions", "suppliers"],
             "errors": ["order rejected at approval", "order amended after sending", "order check failed"]},
        VO: {"tools": ["sanctions-screen", "erp-api", "doc-check"], "verif": "onboarding_review",
             "modes": ["missing-document", "duplicate-vendor", "wrong-entity", "screening-gap"],
             "desc": ["Onboard a new vendor", "Vendor onboarding review", "Set up a supplier record"],
             "tags": ["onboarding", "compliance", "vendor-master", "screening", "documents"],
             "errors": ["onboarding review rejected the record", "vendor activation reversed",
                        "compliance check failed"]},
        TM: {"tools": ["erp-api", "receipt-log"], "verif": "match_audit",
             "modes": ["quantity-mismatch", "price-mismatch", "wrong-receipt", "duplicate-payment"],
             "desc": ["Match supplier invoices", "Clear the blocked invoice queue", "Three-way match run"],
             "tags": ["invoices", "receipts", "tolerances", "payments", "blocks"],
             "errors": ["match audit flagged the invoice", "payment recalled", "invoice blocked at payment run"]},
        CR: {"tools": ["contract-vault", "approval-flow"], "verif": "renewal_review",
             "modes": ["missed-notice", "unfavourable-terms", "wrong-term", "no-market-check"],
             "desc": ["Prepare a contract renewal", "Review contracts due for renewal",
                      "Negotiate a renewal"],
             "tags": ["renewals", "notice-period", "terms", "negotiation", "contracts"],
             "errors": ["renewal review rejected the terms", "contract renewed automatically",
                        "renewal delayed past the deadline"]},
        SA: {"tools": ["erp-api", "category-map"], "verif": "report_checks",
             "modes": ["wrong-scope", "wrong-classification", "currency-mix", "missing-data"],
             "desc": ["Prepare the quarterly spend analysis", "Rank suppliers by spend",
                      "Build the category spend report"],
             "tags": ["spend", "categories", "ranking", "savings", "reporting"],
             "errors": ["report total does not tie to the ledger", "finance rejected the figures",
                        "report reissued"]},
    },
    "retired": RETIRED,
    "generic": ["spreadsheet", "email", "pdf"],
    "background": BACKGROUND,
    "echo": ECHO,
    "outdated": OUTDATED,
    "dups": DUPS,
    "hard_negatives": HARD,
}
