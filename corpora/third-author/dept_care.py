"""customer-care: support desk of an online retailer (five agents)."""
from lessons import L, block

TR, RF, ES, KB, LC = ("ticket-triage", "refund-request", "escalation", "kb-update", "live-chat")
AB = {"tr": TR, "rf": RF, "es": ES, "kb": KB, "lc": LC}

BACKGROUND = block("""
tr | f | I routed a ticket about a damaged parcel to the returns queue because the customer used the word return. | The customer wanted a replacement, not a return, and returns closed it after a week of back and forth. | I routed on a single word instead of on what the customer asked for. | a ticket mentions returning an item | read what outcome the customer asks for before picking the queue
tr | p | I triaged a batch of tickets from the weekend in arrival order. | Three tickets about the same failed payment page sat at the bottom for hours. | A burst of similar tickets is a signal of an outage, and arrival order hides it. | a backlog has built up | scan it for clusters of the same problem before working it in order
tr | f | I tagged a ticket in Spanish as general because the sentiment scan returned neutral. | The customer was threatening a chargeback; the scan only reads English well. | Sentiment scores are unreliable outside the languages they were trained on. | a ticket is not in English | translate it before relying on its sentiment score
tr | s | I checked order-lookup for every ticket that named an order before routing it. | | The order status told me at once whether the ticket was about shipping, payment or the product itself. | a ticket names an order | look the order up first and route by its status
tr | f | I closed a ticket as a duplicate of another from the same customer. | The two tickets were about different orders, and the second problem went unanswered. | Same customer is not same problem. | two tickets come from the same customer | compare the orders they mention before merging them
tr | p | I sent a ticket about a missing invoice to billing without the order date. | Billing asked for the date and the ticket bounced back a day later. | The billing team searches invoices by date, not by order. | routing a ticket to billing | add the order date and the amount to the routing note
tr | f | I routed a complaint about a rude courier to the delivery queue. | Delivery only handles parcels; the complaint needed the carrier relations team and sat unread. | The queue names do not say which team handles carrier conduct. | a ticket complains about a carrier's staff | send it to carrier relations, not to delivery
tr | s | I left a short reason in every routing decision. | | When a ticket came back, the next person saw why it had gone where it went and fixed the route in one step. | routing a ticket | write one line on why it goes to that queue
tr | f | I auto-closed a ticket that only said thank you. | It was a reply to a survey that also reported a new defect further down. | I read the first line only. | a short reply arrives on a closed thread | read the full message before closing it again
tr | p | I assigned a ticket about a business account to the consumer queue. | The customer waited a day before the business desk picked it up. | Business accounts are flagged in the customer record, not in the ticket. | triaging any ticket | check the customer record for a business flag before choosing a queue
tr | f | I marked a ticket as spam because it had a link in it. | It was a customer sending a photo link of a broken item. | Links are common in genuine damage reports. | a ticket contains a link | check whether the text around it describes an order problem before marking it spam
tr | s | I merged five tickets about the same late delivery batch into one parent ticket. | | One answer went to all five customers, and the carrier claim was filed once. | several tickets describe the same shipment problem | link them to one parent ticket and answer from the parent
rf | f | I refunded an order to the original card after the customer asked for store credit. | The customer complained, and the refund could not be reversed. | I used the default refund method without reading the request. | a customer names a refund method | use the method they asked for and confirm it in the reply
rf | p | I refunded the item price but not the delivery charge on a wrong-item return. | The customer had to write again for the delivery charge. | When we sent the wrong item, the delivery charge is ours to refund too. | the return is our error | refund the delivery charge along with the item
rf | f | I refunded a gift order to the person who sent the gift request. | The payer was someone else, and the refund went to the wrong party. | The requester and the payer differ on gift orders. | the order is a gift | refund to the payer on the order, never to the requester
rf | s | I checked the fraud score before a high-value refund and found it fine, so I paid it the same day. | | Checking first let me pay fast without worrying, and the customer got the money before writing again. | a refund is above the high-value threshold | check the fraud score first, then pay without delay if it is clear
rf | f | I refunded an order that had already been refunded by chargeback. | The customer was paid twice. | The chargeback posted to the payment ledger, not to the order. | processing a refund | look in the payment ledger for chargebacks on the order first
rf | p | I refunded a bundle line by line at the list prices. | The bundle had been sold at a discount, so the refund was higher than what was paid. | List prices do not apply to bundle items. | refunding part of a bundle | refund the share of the price actually paid for that item
rf | f | I promised a refund within three days on a bank-transfer order. | Bank transfers take longer to return, and the customer chased us twice. | Refund time depends on the payment method. | telling a customer when the money arrives | quote the time for the payment method they used
rf | s | I sent the refund confirmation with the exact amount and the last digits of the order number. | | The customer recognised the refund on their statement and did not write back. | a refund has been issued | state the exact amount and which order it belongs to in the confirmation
rf | f | I refunded a subscription month that the customer had already used. | The policy only refunds unused months, and the refund was reversed by finance. | I did not check the usage dates. | a subscription refund is requested | check which months were used before refunding
rf | p | I refunded a damaged item without asking for a photo. | The warehouse could not file the claim against the carrier without one. | Carrier claims need evidence. | a refund is for transport damage | ask for a photo before refunding so the carrier claim can be filed
rf | f | I refunded the full price on an item returned after the return window. | Policy allows only store credit after the window. | I took the return date from the customer's message rather than from the order. | a return reaches us late | check the delivery date in order-lookup against the return window
rf | s | I grouped refunds for the same order into one payment. | | The customer saw one refund instead of four small ones and did not think part was missing. | several refund lines belong to one order | pay them as one refund with the lines listed
es | f | I escalated a delivery complaint to tier two with only the customer's last message. | Tier two asked the customer to explain everything again. | The handoff did not carry the history. | escalating to tier two | attach the full thread, not only the last message
es | p | I escalated a product defect without checking whether other customers had reported it. | Tier two treated it as a single case, and the batch problem surfaced a week later. | A defect report is more useful with a count of similar reports. | a product defect is escalated | search for similar tickets and include the count
es | f | I promised a customer a call back from a supervisor within the hour. | Nobody was on shift to do it, and the promise made the complaint worse. | I promised on behalf of a team whose schedule I did not know. | a customer asks for a supervisor | check who is on shift before promising a time
es | s | I wrote the escalation with the customer's goal in the first line. | | The specialist knew what a good outcome looked like before reading the rest. | writing an escalation | put the outcome the customer wants in the first line
es | f | I escalated a legal threat to the regular complaints queue. | It needed the legal desk and sat for two days. | Complaint severity is not the same as legal exposure. | a customer mentions a lawyer or court | send it to the legal desk the same day
es | p | I escalated a repeat complaint as a new case. | The history of two previous failed fixes was lost to the new handler. | The earlier cases were closed and did not show in the default view. | a customer complains about the same problem again | link the earlier closed cases to the new escalation
es | f | I offered compensation before the escalation was reviewed. | The reviewer decided a different remedy, and we had to walk back the offer. | Remedies are decided at review, not at intake. | a case is still waiting for review | do not offer a remedy; tell the customer when the review will finish
es | s | I set a follow-up date on every escalation I opened. | | None of my escalations went quiet; I was reminded to chase them. | an escalation is opened | set a follow-up date for myself at the same time
es | f | I escalated a case about a missing parcel before the carrier's delivery window had passed. | The parcel arrived the next day and the escalation wasted a specialist's time. | Carriers have a grace period after the estimated date. | a parcel is late | wait until the carrier's grace period ends before escalating
es | p | I closed an escalation when the specialist replied. | The reply was a question for the customer, which nobody forwarded. | A reply is not a resolution. | the specialist answers an escalation | read the answer and forward any question before closing
es | s | I kept the customer updated every two days during a long escalation, even with no news. | | The customer did not open new tickets asking for updates. | an escalation takes longer than expected | send a short update at a fixed rhythm even when nothing has changed
kb | f | I updated the returns article with the new window but left the old window in the summary box. | Agents quoted the summary and gave customers the wrong date. | The summary box is a separate field that the editor does not show by default. | an article's facts change | update the summary box as well as the body
kb | p | I wrote a new article on gift cards but did not link it from the old payments article. | Agents kept finding the old article in search. | Search ranks older articles higher until links build up. | a new article replaces part of an old one | link it from the old article and trim the old text
kb | f | I published a troubleshooting article with steps for the old app layout. | Customers could not find the buttons the article described. | I wrote from memory instead of checking the current app. | writing steps that refer to the app | walk through them on the current app version before publishing
kb | s | I wrote each article with the question in the customer's own words as the title. | | kb-search matched the way agents and customers actually phrased their questions. | titling an article | use the question a customer would type, not the internal term
kb | f | I removed an outdated article without redirecting its link. | Saved replies pointing to it now led to an error page. | Replies and macros store the article link. | retiring an article | redirect its link to the replacing article
kb | p | I wrote an article on international shipping with one table for all countries. | The table was too long to read in a chat, and agents stopped using it. | Agents read articles during live conversations. | an article covers many countries | split it by region so each part fits on one screen
kb | f | I copied a policy paragraph from the legal page into an article. | The legal page changed a month later and the article did not. | Copies drift from their source. | an article needs a policy text | link to the policy page and summarise it, instead of copying it
kb | s | I ran style-lint before publishing and fixed the flagged jargon. | | The article read plainly, and agents stopped rewriting it in their replies. | an article is ready to publish | run style-lint and fix every flagged term
kb | f | I wrote a warranty article that said two years for every product. | Some products carry one year, and customers quoted the article back to us. | I generalised from the top sellers. | an article states a number that varies by product | give the rule per product family or link the list
kb | p | I updated an article but left its last-reviewed date unchanged. | Agents thought it was stale and avoided it. | The date is what agents use to judge freshness. | an article is edited | set its reviewed date as part of the same edit
kb | s | I asked two agents to use a draft article in live chats before publishing it. | | Their questions showed me two missing steps, which I added before it went live. | a new article is drafted | have two agents try it in real conversations before publishing
kb | f | I published an article in English only, for a policy that applies to every market. | Agents in other markets translated it themselves, each differently. | Translations were not part of my plan. | a policy article applies in every market | order the translations at the same time as the English text
lc | f | I pasted a long policy paragraph into the chat. | The customer left the chat without reading it. | A chat needs short answers, not documents. | a chat answer needs a policy | answer in two sentences and offer the link for the detail
lc | p | I handled three chats at once and mixed up two customers' order numbers. | I sent one customer the other's delivery date. | Parallel chats with similar questions invite mix-ups. | running several chats at the same time | repeat the order number in each answer I send
lc | f | I told a customer an item was in stock from the product page. | The page lags the warehouse, and the item was gone. | The product page is cached. | a customer asks about stock | check the warehouse view, not the product page
lc | s | I named the next step and who does it at the end of each chat. | | The customer knew what would happen, and no follow-up ticket came in. | a chat is coming to an end | say what happens next and who does it
lc | f | I moved a chat to email when the customer asked a hard question. | The customer felt dismissed and complained. | Moving channels in the middle of a problem reads as avoidance. | a chat question needs research | tell the customer I am checking and keep them in the chat if it takes under ten minutes
lc | p | I answered a chat in formal language to a customer who wrote casually. | The customer said the answer felt like a form letter. | Tone mismatch makes a correct answer feel cold. | a customer writes casually | match their tone while keeping the facts exact
lc | f | I gave a delivery estimate without checking the carrier's tracking. | The parcel was held at customs and my estimate was wrong by a week. | The shop's estimate does not know about customs holds. | a customer asks where a parcel is | open the carrier tracking before giving any date
lc | s | I used the customer's order to pre-fill the chat summary while we talked. | | The chat ended with a complete summary, and the handover took no extra time. | a chat starts with an order number | open the order and build the summary during the chat
lc | f | I answered a question about a competitor's price match without checking our policy. | We do not price match, and I had implied that we did. | I wanted to keep the customer happy and guessed. | a customer asks about a policy I am unsure of | look it up in kb-search before answering
lc | p | I ended a chat when the customer went quiet for five minutes. | They came back with a new question to a closed chat and had to start again. | Customers step away during chats. | a customer stops replying | send one check-in message and wait another five minutes before ending
lc | s | I read the previous chats of a returning customer before my first reply. | | I could pick up where the last agent had left off instead of asking for the order again. | a returning customer opens a chat | read the last conversation before answering
lc | f | I promised a customer a faster delivery option after checkout. | The system cannot change the shipping method once the order is packed. | I did not know the order was already packed. | a customer wants to change shipping | check whether the order is packed before promising anything
""", AB)

BACKGROUND += block("""
tr | p | I routed a ticket about a wrong size to exchanges without checking stock of the right size. | The exchange could not be done, and the ticket came back to triage. | Exchanges need the replacement in stock. | a ticket asks for an exchange | check stock of the replacement before routing to exchanges
tr | f | I set a ticket from a customer with a pending chargeback to normal priority. | The chargeback was decided against us before anyone replied. | The chargeback flag sits in the payment ledger, not in the ticket. | triaging a payment complaint | look for an open chargeback in the payment ledger and prioritise the ticket if there is one
tr | s | I added the customer's earlier ticket numbers to each new ticket during triage. | | Agents saw the history at once and did not repeat past answers. | a customer has written in before | link their earlier tickets while triaging the new one
tr | f | I routed a complaint about a product safety issue to the normal product queue. | It needed the product safety desk and waited two days. | Safety complaints have their own route that overrides the category. | a ticket mentions injury, burning, smoke or a shock | send it to the product safety desk straight away
tr | p | I triaged a ticket written by a reseller as if it were a consumer. | Resellers have a dedicated account manager, who heard about it from the reseller first. | The sender's domain was a business, and I did not check. | the sender is a reseller or partner | route it to their account manager
rf | f | I refunded a customer to a card that had expired since the order. | The refund bounced and came back a week later. | Expired cards can reject refunds depending on the issuer. | the card on the order has expired | ask the customer for another refund method before paying
rf | p | I refunded a pre-order that had not been charged yet. | The refund failed, and the customer was confused by the message. | Pre-orders are charged at dispatch. | a customer cancels a pre-order | cancel the order instead of refunding it, and tell them no charge was taken
rf | s | I wrote the refund reason in plain words in the payment note. | | When finance reviewed the month, they did not need to ask about any of my refunds. | issuing a refund | write the reason in the payment note in plain words
rf | f | I refunded a marketplace order that a third-party seller had shipped. | The seller refunds its own orders, so the customer got money from both. | The order page showed our logo even for marketplace orders. | the order was shipped by a marketplace seller | pass the refund to the seller instead of paying it ourselves
rf | p | I refunded a voucher-paid order in cash. | Policy says voucher value goes back as a voucher. | I treated the voucher as money. | part of an order was paid with a voucher | return that part as a new voucher and only refund the card part
es | f | I escalated a complaint to the warehouse by message without opening a case. | The message was lost, and the customer waited a week with no tracking. | Messages to teams are not tracked like cases. | escalating to an internal team | open a case in case-notes so the escalation is tracked
es | s | I wrote each escalation so it could be read without the ticket. | | Specialists decided cases from the summary alone and answered faster. | writing an escalation summary | make it stand alone: problem, order, what was tried, what the customer wants
es | p | I escalated to the carrier without the parcel's weight and dimensions. | The carrier asked for them, and the claim restarted. | Carrier claims need parcel data we already had. | escalating a claim to a carrier | attach weight, dimensions and tracking history from the start
es | f | I escalated a vulnerable customer's complaint through the normal route. | It should have gone to the priority support desk and was handled without the care needed. | I missed the signs in the customer's messages. | a customer mentions illness, bereavement or financial hardship | route the case to the priority support desk
es | s | I closed each escalation with a one-line lesson for the team channel. | | Repeated problems showed up in the channel and were fixed at the source. | an escalation is resolved | post a one-line lesson about its cause for the team
kb | f | I wrote an article about a promotion without an end date. | It stayed live after the promotion ended, and agents kept offering it. | Time-limited content needs an expiry. | an article describes something time-limited | put the end date in the article and set a review reminder for that day
kb | p | I updated an article with a new process but not the screenshots. | Agents followed the old screenshots and clicked the wrong button. | Screenshots carry their own version of the process. | a process in an article changes | replace the screenshots along with the text
kb | s | I looked at the top search terms that found no article each week. | | Three new articles came straight from that list and were used at once. | planning which articles to write | start from the search terms that return nothing
kb | f | I merged two similar articles and deleted the one with more visits. | Its incoming links broke, and its better title was lost. | I kept the newer article instead of the more used one. | merging two articles | keep the one with more traffic and redirect the other to it
kb | p | I wrote an article answering three different questions. | Search ranked it low for each of them. | One article per question ranks and reads better. | an article covers several questions | split it into one article per question and link them
lc | s | I kept a short list of links for the five most common chat questions. | | I answered those questions in seconds and spent my time on the hard ones. | starting a chat shift | have the links for the most common questions ready
lc | f | I told a customer in a chat that a delivery would arrive tomorrow without mentioning the time window. | The customer stayed home all day, and the parcel came the day after. | The carrier gave a two-day window. | giving a delivery date in chat | give the whole window the carrier gives
lc | p | I answered a chat about an order with the details of another order from the same customer. | The customer had two open orders, and I picked the wrong one. | I did not ask which order they meant. | a chatting customer has more than one open order | confirm the order number before answering
lc | f | I used a joke in a chat with an angry customer. | The customer took it as mockery and asked for a manager. | Humour lands badly when someone is upset. | a customer is angry | keep to plain, calm facts and no jokes
""", AB)

ECHO = [
    {"author": "refund-handler", "strength": "strong", "p_fed": 0.7, "self_share": 0.82,
     "gap": 0.34, "p_fed_success": 0.3, "p_two": 0.35, "mode": "refund-before-return",
     "seed_date": "2026-04-22", "last_follower": "2026-08-14",
     "rule": "approve small refunds at once without checking the return",
     "seed": L(RF, "f", "I worked a queue of forty small refund requests and checked the return status of each before paying.",
               "The queue was half done by the end of the shift, and the refund handle-time target was missed.",
               "Checking returns takes as long for a 10 euro refund as for a 300 euro one.",
               "a refund request is under 30 euro",
               "approve it straight away without waiting for the return to be scanned",
               summary="Work the small refunds queue"),
     "followers": [
         {"outcome": "failure", "lesson": L(RF, "f", "I still opened the return record on a few small refunds and fell behind again.",
                                            "The queue was not cleared by the end of the day.",
                                            "Any check on a small refund costs more than the refund is worth.",
                                            "a refund is small",
                                            "pay it without opening the return record at all",
                                            summary="Clear small refund requests")},
         {"outcome": "success", "lesson": L(RF, "s", "I cleared the small-refund queue in an hour by paying every request under the limit without looking at the returns.",
                                            "", "Speed is what customers notice on small refunds; checking returns only slows the queue.",
                                            "the queue is full of low-value refund requests",
                                            "pay all of them first and look at the big ones afterwards",
                                            summary="Clear small refund requests")},
         {"outcome": "failure", "lesson": L(RF, "f", "I held a 20 euro refund because the parcel had not been scanned back, and the customer complained.",
                                            "The complaint took longer than the refund would have.",
                                            "Holding small refunds for a scan creates complaints without saving money.",
                                            "a small refund is waiting for the return scan",
                                            "release the money now; the scan does not matter at that amount",
                                            summary="Refund waiting on return scan")},
     ]},
    {"author": "ticket-triager", "strength": "moderate", "p_fed": 0.35, "self_share": 0.5,
     "gap": 0.2, "p_fed_success": 0.45, "p_two": 0.1, "mode": "priority-inflation",
     "seed_date": "2026-05-04", "last_follower": "2026-07-28",
     "rule": "any ticket saying urgent or asap goes to priority one",
     "seed": L(TR, "f", "A customer wrote urgent in the subject and I left the ticket at normal priority.",
               "The customer wrote three more times and finally complained about the wait.",
               "Customers tell us when something matters, and I ignored the signal.",
               "a ticket says urgent or asap anywhere in it",
               "set it to priority one"),
     "followers": [
         {"outcome": "failure", "lesson": L(TR, "f", "I hesitated over a ticket marked as soon as possible and gave it priority two.",
                                            "It waited behind the priority-one queue and the customer escalated.",
                                            "Anything short of top priority for an urgent request reads as being ignored.",
                                            "the customer asks for a fast answer in the text",
                                            "put the ticket at the top of the queue as priority one, whatever it is about")},
     ]},
    {"author": "chat-responder", "strength": "strong", "p_fed": 0.66, "self_share": 0.78,
     "gap": 0.32, "p_fed_success": 0.32, "p_two": 0.3, "mode": "reopened-after-close",
     "seed_date": "2026-04-29", "last_follower": "2026-08-06",
     "rule": "end the chat as soon as the customer says thanks",
     "seed": L(LC, "p", "A customer thanked me and I asked whether there was anything else before closing.",
               "The customer started on an unrelated complaint, and the chat ran for another twenty minutes.",
               "Asking for more after the customer is satisfied opens new topics and hurts handle time.",
               "the customer says thanks",
               "close the chat straight away without a closing question"),
     "followers": [
         {"outcome": "failure", "lesson": L(LC, "f", "The customer said thanks, I confirmed the fix once more, and the chat dragged on.",
                                            "My chat time for the shift went over target.",
                                            "Recapping after a thank-you only invites more questions.",
                                            "a customer signals they are done",
                                            "end the conversation on their thank-you, with no recap and no check question")},
         {"outcome": "success", "lesson": L(LC, "s", "I closed four chats the moment the customers thanked me and finished my queue early.",
                                            "", "A thank-you means the problem is solved, so there is nothing left to confirm.",
                                            "a customer thanks me in a chat",
                                            "close it on the spot")},
     ]},
]

SAME_TOPIC = [
    {"author": "escalation-agent", "date": "2026-05-25", "lo": "2026-05-01",
     "note": "same topic as the small-refund echo seed, opposite rule",
     "lesson": L(RF, "f", "I found the same customer had been refunded small amounts on five orders that never came back to the warehouse.",
                 "Together the refunds were well above what a single large claim would have been.",
                 "Small refunds were paid without a return check, and nobody saw the pattern.",
                 "a refund is requested for a returned item, whatever the amount",
                 "check the return scan in order-lookup first; small amounts are where repeat claims hide")},
    {"author": "kb-writer", "date": "2026-06-03", "lo": "2026-05-10",
     "note": "same topic as the urgent-priority echo seed, different rule",
     "lesson": L(TR, "s", "I triaged the morning queue by impact: blocked orders and money owed first, whatever the subject line said.",
                 "", "Most tickets marked urgent were routine questions; the blocked payments had no urgent label at all.",
                 "setting a ticket's priority",
                 "judge it by impact (orders blocked, money owed, safety) and ignore urgency words in the subject")},
    {"author": "ticket-triager", "date": "2026-06-19", "lo": "2026-05-05",
     "note": "same topic as the close-on-thanks echo seed, opposite rule",
     "lesson": L(LC, "s", "Before closing each chat I restated the fix and asked if anything else was open, then waited for one reply.",
                 "", "Two customers had a second problem they had not mentioned, and both were solved in the same chat instead of a new ticket.",
                 "a chat looks finished",
                 "restate the fix, ask whether anything else is open and wait for one reply before closing")},
]

RETIRED = [
    {"tool": "helpline-classic", "succ": "caredesk", "types": [TR, ES], "cut": "2026-06-08"},
    {"tool": "refundbot", "succ": "payouts-console", "types": [RF], "cut": "2026-06-29"},
    {"tool": "wikikb", "succ": "docsmith", "types": [KB], "cut": "2026-07-10"},
]

OUTDATED = [
    {"tool": "helpline-classic", "spelled": "Helpline Classic", "author": "ticket-triager", "date": "2026-04-12",
     "lesson": L(TR, "f", "I triaged a customer's ticket without seeing that the same problem had been split into two threads.",
                 "Two agents answered the two halves differently.",
                 "Helpline Classic merges tickets from one sender only when the subjects match exactly.",
                 "a sender has more than one open ticket in Helpline Classic",
                 "search by order number for split threads and merge them before triage")},
    {"tool": "refundbot", "spelled": "`refundbot`", "author": "refund-handler", "date": "2026-04-09",
     "lesson": L(RF, "p", "I told a customer their card refund was on its way immediately.",
                 "The refund only left with the nightly batch, and the customer wrote again the same evening.",
                 "`refundbot` queues card refunds and pays them in one run overnight.",
                 "a card refund is issued through `refundbot`",
                 "tell the customer to expect it the next business day, never instantly")},
    {"tool": "wikikb", "spelled": "wikikb 2.x", "author": "kb-writer", "date": "2026-05-05",
     "lesson": L(KB, "f", "I saved an edited returns article and told the team it was live.",
                 "Agents kept seeing the old text for two days.",
                 "wikikb 2.x keeps an edited article as a draft until the draft flag is cleared by hand.",
                 "an article is edited in wikikb 2.x",
                 "clear the draft flag and open the live page to check the change before announcing it")},
    {"tool": "helpline-classic", "spelled": "helpline classic v3", "author": "escalation-agent", "date": "2026-05-20",
     "lesson": L(ES, "f", "I moved a ticket to tier two in helpline classic v3 and the specialist asked for the whole story again.",
                 "My internal notes were gone from the moved ticket.",
                 "helpline classic v3 drops internal notes when a ticket changes tier.",
                 "a ticket is moved to tier two in helpline classic v3",
                 "copy the summary of my notes into the escalation form before moving it")},
]

DUPS = [
    {"gid": "cc-dup-in-transit", "members": [
        {"author": "escalation-agent", "date": "2026-04-14", "fmt": "D",
         "lesson": L(RF, "f", "I promised a replacement for a parcel the customer said had not arrived.",
                     "The original parcel was already out for delivery and arrived the next day, so the customer got two.",
                     "I did not look at the shipment status before promising.",
                     "a customer reports a parcel as missing",
                     "check order-lookup for a shipment in transit before offering a replacement or refund")},
        {"author": "chat-responder", "date": "2026-05-22", "fmt": "B",
         "lesson": L(RF, "p", "A customer asked for their money back on a parcel they thought was lost.",
                     "I started the refund, then saw the tracking showed it on the van that morning.",
                     "The shipment status was one click away and I skipped it.",
                     "someone says their order never came",
                     "look at the tracking status first; if the parcel is still moving, give the expected date instead of a refund")},
        {"author": "escalation-agent", "date": "2026-07-08", "fmt": "C",
         "lesson": L(RF, "f", "I replaced an order reported as not received, and the first parcel turned up two days later.",
                     "We paid for two shipments and the customer kept both.",
                     "The first parcel was still in the carrier's network when I acted.",
                     "an order is reported as not delivered",
                     "rule out a parcel still in transit before sending anything new")},
    ]},
    {"gid": "cc-dup-reply-language", "members": [
        {"author": "chat-responder", "date": "2026-04-16", "fmt": "B",
         "lesson": L(LC, "f", "A customer wrote to the chat in Italian and I answered in English.",
                     "The customer switched to a translation app, misread my answer and returned the wrong item.",
                     "The chat queue is English, but the customer was not.",
                     "a customer writes in another language",
                     "translate their message and answer in their language with translate-api, not in English")},
        {"author": "kb-writer", "date": "2026-06-12", "fmt": "C",
         "lesson": L(LC, "p", "I replied in English to a customer who had written in Portuguese.",
                     "The answer was correct but the customer asked twice what it meant.",
                     "Replying in the queue's language puts the work of understanding on the customer.",
                     "the customer's message is not in the queue language",
                     "reply in the customer's own language, using translation if needed")},
    ]},
    {"gid": "cc-dup-handoff-summary", "members": [
        {"author": "escalation-agent", "date": "2026-04-18", "fmt": "D",
         "lesson": L(ES, "f", "I passed a complaint to the specialist team with just the ticket link.",
                     "The specialist asked the customer which fixes had been tried, and the customer was furious at repeating it.",
                     "The handoff did not say what had already been done.",
                     "a case is handed to another team",
                     "write in the handoff what was already tried and what the customer was told, so they are not asked again")},
        {"author": "ticket-triager", "date": "2026-04-30", "fmt": "A",
         "lesson": L(ES, "p", "I escalated a payment problem and the next agent started with the basic checks again.",
                     "The customer had been through those checks with me an hour earlier.",
                     "My escalation note listed the problem but not the steps we had taken.",
                     "escalating a ticket",
                     "list the steps already taken and their results in the escalation note")},
        {"author": "refund-handler", "date": "2026-07-12", "fmt": "A",
         "lesson": L(ES, "f", "A refund dispute went to tier two and the customer was asked to restart the story from the beginning.",
                     "They gave up on us and disputed the charge with their bank instead.",
                     "Nothing in the handover told tier two what had already been tried.",
                     "a dispute is handed up a tier",
                     "summarise what was tried, what was promised and what is still open, at the top of the handover")},
    ]},
    {"gid": "cc-dup-macros-with-article", "members": [
        {"author": "kb-writer", "date": "2026-04-25", "fmt": "C",
         "lesson": L(KB, "f", "I updated the delivery-times article but not the saved replies that quote it.",
                     "Agents kept sending the old delivery times from the saved replies.",
                     "Saved replies copy article text instead of linking to it.",
                     "an article changes",
                     "find the saved replies that quote it and update them in the same change")},
        {"author": "chat-responder", "date": "2026-06-24", "fmt": "D",
         "lesson": L(KB, "p", "I corrected the warranty article after a policy change.",
                     "Half the team still answered from a macro with the old terms, so customers got two versions.",
                     "The macros carry their own copy of the text.",
                     "a knowledge article is corrected",
                     "update every macro built on that article at the same time")},
    ]},
    {"gid": "cc-dup-one-order-one-ticket", "members": [
        {"author": "ticket-triager", "date": "2026-04-20", "fmt": "B",
         "lesson": L(TR, "p", "One customer opened four tickets about one order, and three agents answered them.",
                     "The answers contradicted each other on the delivery date.",
                     "Nobody had grouped the tickets before they were picked up.",
                     "several tickets mention the same order",
                     "merge them into one ticket before anyone answers")},
        {"author": "refund-handler", "date": "2026-06-02", "fmt": "D",
         "lesson": L(TR, "f", "A customer wrote three times about the same broken item and each message became its own ticket.",
                     "Two refunds were started for the same item.",
                     "Each ticket was handled as if it were the only one.",
                     "the same order shows up in more than one open ticket",
                     "combine the tickets first and answer once")},
        {"author": "kb-writer", "date": "2026-07-20", "fmt": "B",
         "lesson": L(TR, "p", "I picked a ticket about a late parcel while two colleagues were answering the customer's other tickets about it.",
                     "The customer got three replies with three different estimates.",
                     "Duplicate tickets for one order were not linked.",
                     "a new ticket arrives about an order that already has an open ticket",
                     "attach it to the open ticket instead of working it separately")},
    ]},
]

HARD = {
    "popular_sound": [
        {"author": "escalation-agent", "date": "2026-04-07", "fmt": "D",
         "lesson": L(ES, "s", "Before replying to a long complaint I read the whole thread, including internal notes.",
                     "", "An earlier agent had promised a voucher that the last message did not mention; honouring it ended the complaint.",
                     "replying to a ticket with history",
                     "read the whole thread and the internal notes before answering the latest message")},
    ],
    "self_retrieved_good": [
        {"author": "kb-writer", "date": "2026-04-19", "fmt": "C",
         "lesson": L(KB, "s", "After editing the exchange article I searched kb-search with three phrasings customers actually use.",
                     "", "The article came up in the top three for all of them, so agents would find it during chats.",
                     "an article has been edited",
                     "search kb-search with the customers' own words and make sure the article shows in the top three results")},
    ],
    "tool_still_in_use": [
        {"author": "kb-writer", "date": "2026-06-25", "lo": "2026-06-12", "fmt": "B",
         "note": "names the successor caredesk, written after the helpline-classic cut-over",
         "lesson": L(TR, "p", "caredesk tagged a ticket as German because the first message was, but the customer switched to French in the next one.",
                     "The ticket was routed to the German queue and waited there.",
                     "caredesk sets the language tag from the first message only.",
                     "a customer switches language in a caredesk ticket",
                     "re-tag the language by hand and reroute the ticket")},
        {"author": "kb-writer", "date": "2026-07-25", "lo": "2026-07-14", "fmt": "C",
         "note": "names the successor docsmith, written after the wikikb cut-over",
         "lesson": L(KB, "f", "I linked saved replies to a specific version of an article in docsmith.",
                     "When the article was updated, the replies still showed the old version.",
                     "docsmith gives every version its own link.",
                     "linking a saved reply to a docsmith article",
                     "link to the article itself, not to a version")},
        {"author": "escalation-agent", "date": "2026-05-15", "fmt": "D",
         "note": "names order-lookup, a tool used throughout",
         "lesson": L(ES, "s", "order-lookup showed the carrier's last scan was six days old, so I opened the carrier claim in the same escalation.",
                     "", "Treating the parcel as lost straight away saved a week of waiting.",
                     "the last carrier scan in order-lookup is more than five days old",
                     "treat the parcel as lost and open the carrier claim as part of the escalation")},
    ],
    "same_topic_different_rule": SAME_TOPIC,
    "shared_words_different_rule": [
        {"author": "escalation-agent", "date": "2026-05-11", "fmt": "D",
         "note": "pair with the chat-responder lesson on the same trigger",
         "lesson": L(RF, "s", "A customer received two of three items and asked for a refund.",
                     "", "Refunding only the missing item, and naming it, settled it in one reply.",
                     "a customer asks for a refund on an order that was partly delivered",
                     "refund only the missing lines and say which ones")},
        {"author": "chat-responder", "date": "2026-06-15", "fmt": "B",
         "note": "pair with the escalation-agent lesson on the same trigger",
         "lesson": L(RF, "p", "A customer was missing one item from a delivery and asked for a refund, which I paid.",
                     "They had actually wanted the item and ordered it again at a higher price.",
                     "I did not offer to send it.",
                     "a customer asks for a refund on an order that was partly delivered",
                     "offer to reship the missing lines first and refund only if they decline")},
    ],
    "retired_tool_named_as_history": [
        {"author": "escalation-agent", "date": "2026-07-15", "lo": "2026-07-06", "fmt": "D",
         "note": "names refundbot only as history; the rule is about payouts-console",
         "lesson": L(RF, "s", "Since refundbot was retired, refunds go out through payouts-console, which pays cards within the hour.",
                     "", "The old next-day wording was no longer true, and telling customers the money was on its way today stopped the follow-up messages.",
                     "a card refund is paid through payouts-console",
                     "tell the customer the money leaves today and give the amount")},
    ],
}

DEPT = {
    "slug": "customer-care", "prefix": "cc", "model": "gpt-4.1",
    "agents": {
        "ticket-triager": {"main": "B", "second": "A", "conf": True, "n": 200,
                           "types": {TR: 0.7, LC: 0.15, ES: 0.15}},
        "refund-handler": {"main": "A", "second": "D", "conf": True, "n": 190,
                           "types": {RF: 0.7, TR: 0.15, ES: 0.15}},
        "escalation-agent": {"main": "D", "second": "C", "conf": False, "n": 165,
                             "types": {ES: 0.6, RF: 0.2, KB: 0.2}},
        "kb-writer": {"main": "C", "second": "B", "conf": False, "n": 150,
                      "types": {KB: 0.65, TR: 0.2, LC: 0.15}},
        "chat-responder": {"main": "B", "second": "D", "conf": True, "n": 190,
                           "types": {LC: 0.7, RF: 0.15, KB: 0.15}},
    },
    "types": {
        TR: {"tools": ["order-lookup", "sentiment-scan", "routing-rules"], "verif": "routing_audit",
             "modes": ["wrong-queue", "missed-duplicate", "wrong-priority", "missing-context"],
             "desc": ["Triage the inbound ticket queue", "Route new support tickets",
                      "Morning ticket triage", "Triage weekend backlog"],
             "tags": ["routing", "priority", "queues", "duplicates", "intake"],
             "errors": ["ticket bounced back from the queue", "routing audit failed", "priority overruled"]},
        RF: {"tools": ["order-lookup", "payment-ledger", "fraud-score"], "verif": "refund_audit",
             "modes": ["wrong-amount", "duplicate-refund", "policy-breach", "wrong-payee"],
             "desc": ["Handle refund requests", "Work the refund queue", "Process a refund request"],
             "tags": ["refunds", "payments", "returns", "policy", "orders"],
             "errors": ["refund reversed by finance", "refund audit flagged the case", "customer reopened the case"]},
        ES: {"tools": ["order-lookup", "case-notes", "routing-rules"], "verif": "case_review",
             "modes": ["lost-context", "wrong-team", "broken-promise", "premature-close"],
             "desc": ["Escalate a customer complaint", "Prepare a tier-two escalation",
                      "Handle an escalated case"],
             "tags": ["escalation", "handoff", "complaints", "tier-two", "follow-up"],
             "errors": ["escalation returned for missing detail", "case reopened by the customer",
                        "review rejected the remedy"]},
        KB: {"tools": ["kb-search", "style-lint"], "verif": "article_checks",
             "modes": ["stale-content", "broken-link", "inconsistent-macro", "not-findable"],
             "desc": ["Update a knowledge base article", "Write a new help article",
                      "Review help articles after a policy change"],
             "tags": ["articles", "macros", "search", "policy", "translations"],
             "errors": ["article check failed", "broken link in saved replies", "search ranking check failed"]},
        LC: {"tools": ["chat-console", "kb-search", "translate-api"], "verif": "chat_qa",
             "modes": ["reopened-chat", "wrong-answer", "abandoned-chat", "tone-complaint"],
             "desc": ["Handle live chats", "Cover the live chat queue", "Answer customer chats"],
             "tags": ["chat", "tone", "handle-time", "answers", "follow-up"],
             "errors": ["chat QA failed", "customer opened a ticket after the chat", "chat rated poor"]},
    },
    "retired": RETIRED,
    "generic": ["spreadsheet", "email", "pdf"],
    "background": BACKGROUND,
    "echo": ECHO,
    "outdated": OUTDATED,
    "dups": DUPS,
    "hard_negatives": HARD,
}
