# Hospital pharmacy operations desk: world, lesson bank and planted items.
# Core line: kind | title | summary | wrong-or-did | cause-or-why | trigger | action [| alternative]

DEPT = {
    "slug": "hospital-pharmacy",
    "prefix": "rx",
    "types": {
        "order-verification": {"unit": "orders", "tools": ["emr-orders", "dose-calc", "renal-dosing-table", "allergy-lookup"],
                               "modes": ["dose-out-of-range", "allergy-missed", "renal-adjustment-missed", "duplicate-therapy", "late-verification"],
                               "skills": ["order-review", "dose-check", "renal-dosing"]},
        "interaction-screen": {"unit": "medication profiles", "tools": ["drug-monograph", "allergy-lookup", "lab-results"],
                               "modes": ["interaction-missed", "alert-overridden", "lab-value-stale", "false-positive-escalation", "profile-incomplete"],
                               "skills": ["interaction-review", "monograph-lookup"]},
        "inventory-reorder": {"unit": "line items", "tools": ["wholesaler-portal", "shortage-feed", "par-levels"],
                              "modes": ["stockout", "allocation-exceeded", "expired-stock", "wrong-pack-size", "order-after-cutoff"],
                              "skills": ["reorder-planning", "shortage-handling"]},
        "controlled-count": {"unit": "drawers", "tools": ["vault-cabinet", "count-sheet", "discrepancy-log"],
                             "modes": ["unresolved-discrepancy", "witness-missing", "count-late", "waste-undocumented", "seal-broken"],
                             "skills": ["count-procedure", "discrepancy-resolution"]},
        "iv-compounding": {"unit": "preparations", "tools": ["compound-calc", "beyond-use-dates", "gravimetric-scale", "label-printer"],
                           "modes": ["concentration-error", "bud-wrong", "label-mismatch", "contamination-risk", "batch-late"],
                           "skills": ["aseptic-prep", "dose-calculation", "labelling"]},
    },
    "retired": [
        {"tool": "interax-4", "successor": "interax-5", "cut_over": "2026-06-15", "types": ["interaction-screen"]},
        {"tool": "medstock-classic", "successor": "rxstock", "cut_over": "2026-05-11", "types": ["inventory-reorder", "controlled-count"]},
    ],
    "rare": {"tool": "dea-form-tool", "type": "controlled-count", "p": 0.08},
    "agents": [
        {"name": "verify-rx-agent", "main": "A", "second": "D", "conf": False, "rate": 0.6, "types": {"order-verification": 7, "interaction-screen": 2}, "style": 2},
        {"name": "interact-agent", "main": "B", "second": "C", "conf": True, "rate": 0.55, "types": {"interaction-screen": 7, "order-verification": 2}, "style": 0},
        {"name": "stock-agent", "main": "C", "second": "B", "conf": False, "rate": 0.55, "types": {"inventory-reorder": 8, "controlled-count": 1}, "style": 4},
        {"name": "cii-agent", "main": "D", "second": "A", "conf": True, "rate": 0.55, "types": {"controlled-count": 7, "inventory-reorder": 1}, "style": 5},
        {"name": "iv-agent", "main": "A", "second": "B", "conf": False, "rate": 0.5, "types": {"iv-compounding": 8, "order-verification": 1}, "style": 3},
        {"name": "night-agent", "main": "B", "second": "A", "conf": False, "rate": 0.45, "types": {"order-verification": 3, "interaction-screen": 3, "iv-compounding": 2}, "style": 1},
    ],
}

BANK = {
"order-verification": """
f|discharge supply length|Verification of discharge prescriptions|A patient went home with three days of an antibiotic meant for seven.|The discharge quantity defaulted to three days and I did not compare it with the course length.|a discharge order continues an inpatient course|check the supply covers the remaining days of the course
f|tube feeding crushed tablet|Verification of oral orders for a tube-fed patient|A modified-release tablet was verified for a patient fed by tube.|I did not check the route of feeding in the notes.|a patient is fed by tube|check each oral order for crushability and switch to a liquid where needed
s|verify against the care plan|Verification for a palliative care patient|Checking orders against the documented care plan let me stop three routine drugs with the team's agreement.|The plan had moved to comfort care and the routine orders no longer fitted.|a patient has a documented care plan change|review the active orders against the new plan
f|weight from last admission|Verification of a weight-based antibiotic order|I verified a dose calculated on a weight recorded at an admission two years earlier.|The order screen shows the most recent weight on file, not the weight of this stay.|a dose is weight-based|check that the weight was recorded during the current admission before verifying
f|duplicate acetaminophen sources|Verification of post-operative analgesia orders|I verified a combination product while a separate acetaminophen order was active, pushing the daily total over the limit.|The combination product's acetaminophen content does not show up under the ingredient search I used.|a combination analgesic is ordered|add up the acetaminophen from every active order, including combination products
s|verify by indication|Verification queue for a surgical ward|Checking each order against the documented indication first let me clear 40 orders with two clarification calls.|Most questionable orders had a clear indication in the notes, so only two needed a call.|the verification queue is long|check the documented indication first and call only when it is absent
f|tall-man names not used|Verification of a sedative order|I nearly verified a look-alike drug because the order used lower-case names.|The order set was imported from another site without tall-man lettering.|two drug names on a ward list differ only by a few letters|read both names letter by letter and compare the strengths before verifying
f|paediatric units per dose|Verification of a paediatric antipyretic order|The dose was written per day but entered as per dose.|I did not compare the dose with the mg per kg per dose range.|an order is for a child|convert the dose to mg per kg per dose and compare it with the range
f|stop date missing|Verification of a prophylactic antibiotic|The antibiotic ran for nine days instead of one.|The surgical prophylaxis order had no stop date and I verified it as written.|a prophylaxis order has no stop date|contact the prescriber for a stop date before verifying
s|clarify with a proposed dose|Verification of a high-risk anticoagulant order|Calling the prescriber with a proposed corrected dose got the order amended within minutes.|A concrete proposal is quicker to accept than an open question.|an order needs clarification|call with a specific proposed correction rather than an open question
f|route conversion error|Verification of an IV to oral switch|The oral dose was entered as the same milligram amount as the IV dose.|Bioavailability differs between routes for this drug and I did not check the conversion table.|an order switches route|check the route conversion factor before verifying
f|allergy free text|Verification of a penicillin-class order|An allergy recorded only as free text in the notes was missed.|allergy-lookup reads coded allergies only.|a patient's notes mention an allergy in text|search the notes and code the allergy before verifying any related class
d|hold rather than reject|Verification of a dose above the usual maximum|I placed the order on hold with a note rather than rejecting it outright.|Rejecting would have dropped the order from the prescriber's list, while a hold kept it visible for the correction.|an order needs a prescriber change|hold it with a note instead of rejecting|Rejecting the order, or verifying it with a warning.
f|insulin sliding scale copied|Verification of a transferred patient's insulin orders|The ward's sliding scale was applied to a patient on a different protocol.|Transfer orders copied the sending ward's defaults.|a patient is transferred between wards|re-check every protocol-based order against the receiving ward's protocol
f|frequency abbreviation|Verification of a twice-daily order|I read an abbreviation as twice daily when it meant twice weekly.|The abbreviation is on the do-not-use list and I did not ask.|an order uses an abbreviation on the do-not-use list|ask for the frequency in words before verifying
s|batch verification by ward|Verification during the morning peak|Working the queue ward by ward instead of by time let me group the prescriber calls and cut the backlog by a third.|Each ward had one prescriber on call, so the calls could be grouped.|the morning queue is large|sort it by ward and group the clarification calls
f|therapeutic duplication in classes|Verification of two proton pump inhibitor orders|Two drugs of the same class were verified on the same day.|The orders were in different names and I checked duplication by drug, not by class.|a new order arrives for a patient with many active orders|check duplication by therapeutic class, not only by drug name
f|max dose in hepatic impairment|Verification of an analgesic order for a patient with liver disease|The dose was within the normal maximum but above the hepatic limit.|I used the standard maximum without looking at the liver function results.|a patient has documented liver impairment|apply the hepatic dose limit from the monograph instead of the standard maximum
""",
"interaction-screen": """
f|transplant level drug|Interaction screen for a transplant patient|An antifungal that raises immunosuppressant levels was started without a level check.|I treated the pair as a routine monitoring alert.|a drug with narrow therapeutic levels is on the profile|ask for a level within three days of any interacting start
f|pediatric interaction doses|Interaction screen for a child on seizure medicines|An interaction alert was cleared using adult dose thresholds.|The monograph threshold quoted was for adults.|a screened patient is a child|use the paediatric section of the monograph for thresholds
f|qt drugs stacked|Interaction screen for a cardiac ward patient|Three QT-prolonging drugs were active together and only one pair was flagged.|The screen reports pairs, not the cumulative effect of several drugs.|a profile holds two or more QT-prolonging drugs|count them together and flag the combination even if no single pair is severe
f|herbal products missing|Interaction screen for an outpatient on warfarin|An interaction with a herbal supplement was missed.|Supplements were only in the admission notes, not in the medication list.|a patient takes anticoagulants|ask for or search the notes for herbal and over-the-counter products
s|monograph for severity|Interaction screen on a busy oncology list|Checking the monograph's severity for each alert before escalating cut the escalations in half with no missed harm.|Many alerts were minor and already managed by dose timing.|an interaction alert fires|read the monograph severity and management before escalating
f|potassium stale lab|Interaction screen for a patient on two potassium-raising drugs|I cleared the combination using a potassium level from five days earlier.|lab-results shows the last value without its date in the summary row.|an interaction depends on a lab value|open the lab history and use a value from the last 24 hours
f|enzyme inducer stopped|Interaction screen after a drug was discontinued|Levels of a second drug rose after an enzyme inducer was stopped and nobody adjusted the dose.|I only screened new starts, not stops.|an interacting drug is stopped|screen the remaining drugs for the effect of the stop, not only for new starts
f|serotonergic combination|Interaction screen for a patient on an antidepressant|A serotonergic analgesic was added and I did not flag it.|The pair was rated moderate and I only escalate severe pairs.|two serotonergic drugs are combined|flag the combination whatever the pair rating and ask for monitoring
s|profile reconciliation first|Interaction screen for a transferred patient|Reconciling the medication profile before screening removed four stale orders and the screen came back clean.|Stale orders create false alerts and hide the real ones.|a patient's profile was built from an earlier stay|reconcile the profile before running the screen
f|chemotherapy timing|Interaction screen for a chemotherapy day|A drug that raises methotrexate levels was given on the infusion day.|The interaction is time-dependent and I screened as if the drugs were given on different days.|an interaction depends on timing|check the administration times, not only the drug pair
f|alert fatigue override|Interaction screen for an intensive care patient|I overrode a severe alert because the same pair had been overridden twice before.|Earlier overrides were for a lower dose.|an alert was overridden before|check that the dose and indication still match the earlier override before overriding again
f|grapefruit diet order|Interaction screen for a statin|The patient's diet order included grapefruit juice and the interaction was not flagged.|Diet orders are outside the medication screen.|a drug interacts with food|check the diet order as part of the screen
s|summarise for the ward|Interaction screens for a medical ward|A three-line summary of flagged pairs at the top of each note meant nurses acted on the monitoring advice the same shift.|Nurses read the top of the note; detailed advice lower down was being missed.|an interaction needs ward action|put a short summary of the action at the top of the note
f|duplicate alerts ignored|Interaction screen for a patient on antiepileptics|I treated a repeated alert as a duplicate and missed that a dose had doubled.|The alert text was identical but the dose behind it had changed.|an interaction alert repeats|compare the current dose with the dose at the previous alert
f|contrast and metformin|Interaction screen before an imaging study|Metformin was not held before contrast in a patient with reduced kidney function.|The imaging order came from another department and was not on the profile.|a patient on metformin is booked for contrast imaging|check kidney function and advise holding metformin
""",
"inventory-reorder": """
f|temperature excursion delivery|Reorder of refrigerated insulin|A delivery was put away although its temperature logger showed an excursion.|The logger was not read at receipt.|a refrigerated delivery arrives|read the temperature logger before putting the stock away
f|consignment stock counted|Monthly reorder for the theatre store|The order double-counted consignment implants as our stock.|Consignment items sit on the same shelf and the count included them.|a store holds consignment stock|exclude consignment items from the count
s|standing order for fluids|Weekly reorder of bulk fluids|A standing weekly order for bulk fluids freed an hour a week and never ran short.|Bulk fluid use is steady week to week.|an item's weekly use varies by less than ten percent|set up a standing order
f|biosimilar switch not flagged|Reorder of a biologic after a contract change|Wards received a biosimilar without notice and queried it.|The contract switched products and nobody told the wards.|a contract change swaps a product|tell the affected wards before the first delivery
f|pack size changed|Weekly reorder of intravenous fluids|The order arrived in packs of twenty instead of ten, doubling the stock.|The wholesaler changed the pack size and the quantity field counts packs.|a wholesaler item shows a new pack size|recalculate the order quantity in units before submitting
f|short-dated stock accepted|Reorder of emergency antidotes|Delivered antidotes had only two months of shelf life.|I did not set a minimum expiry on the order.|an item is rarely used|set a minimum expiry on the order line
s|order before noon cutoff|Daily reorder during a heavy week|Submitting the main order by eleven kept next-day delivery every day of the week.|The wholesaler's noon cutoff is strict and late orders slip a day.|a reorder is due|submit it before eleven to keep the noon cutoff
f|par levels seasonal|Reorder of respiratory inhalers|Stock ran out during the first cold week.|Par levels were set in summer and not raised for winter demand.|the season changes|review par levels for seasonal items a month ahead
f|substitute not approved|Reorder during an antibiotic shortage|I ordered a substitute that was not on the formulary.|The shortage-feed listed alternatives without checking our formulary.|a shortage item is substituted|confirm the substitute is on the formulary before ordering
f|refrigerated delivery timing|Reorder of vaccines|A refrigerated delivery arrived on Saturday when the store was closed.|I chose the earliest delivery slot without checking opening hours.|an order contains refrigerated items|choose a delivery slot when the store is staffed
s|usage-based par review|Monthly par review for ward stock|Setting pars from twelve weeks of usage instead of the old fixed pars freed shelf space and there were no stockouts.|Usage data reflected current prescribing, the fixed pars did not.|par levels are reviewed|set them from recent usage, not from the previous par
f|returns not credited|Reorder after a recall|Recalled stock was not credited and the budget showed an overspend.|The return authorisation was not attached to the wholesaler return.|stock is returned to the wholesaler|attach the return authorisation number to the shipment
f|ward stock not counted|Reorder for ward cupboards|A ward ran out because its cupboard was topped up by estimate.|The count was skipped on a busy day and I reordered the usual amount.|a ward cupboard is restocked|count what is there before ordering, even on busy days
f|unit of issue confusion|Reorder of oral syringes|I ordered boxes when the system expected single units, and the order was rejected.|The unit of issue is set per item and differs between similar items.|an order line is entered|check the unit of issue for that item before entering the quantity
f|expiry rotation|Reorder after a stock check|New stock was placed in front and older stock expired on the shelf.|The putaway was rushed and rotation was not checked.|a delivery is put away|place new stock behind older stock with the earliest expiry in front
s|shortage watch list|Weekly review of the shortage feed|A short watch list of our ten highest-risk items let me order ahead of two shortages.|Most shortage notices do not affect us; a focused list made the relevant ones stand out.|the shortage feed is reviewed|check the watch list items first
f|high-cost item ordered twice|Reorder of a biologic|A high-cost biologic was ordered twice by two shifts.|There was no note of the pending order in the handover.|a high-cost item is ordered|record the pending order in the handover log
f|discontinued product|Reorder of an eye drop|The order failed because the product was discontinued.|I did not check the discontinuation notices.|an order is rejected by the wholesaler|check discontinuation notices and find the replacement code
""",
"controlled-count": """
s|count schedule posted|Monthly controlled drug checks on wards|Posting the ward count schedule a month ahead meant every ward had a nurse free at count time.|Wards could plan staff around a known time.|ward counts are planned|publish the schedule a month ahead
f|ward cabinet override|Count of an automated ward cabinet|Override removals did not match the orders.|Overrides were not reconciled each shift.|a ward cabinet allows overrides|reconcile every override against an order the same shift
f|keys left in cabinet|Count at shift change|The vault cabinet keys were found in the door after the count.|The count was interrupted by a phone call.|a count is interrupted|lock the cabinet and take the keys before answering
f|count sheet wrong page|Shift count of controlled drugs in the main vault|The count was recorded on the previous day's sheet.|Two sheets were open and the older one was on top.|a count starts|check the date at the top of the count sheet first
s|blind count pairs|Shift count in the vault|Counting blind, with one person counting and the other reading the expected numbers only afterwards, found a real discrepancy the same day.|A blind count prevents the counter from confirming the expected number.|a shift count is done|count blind and compare only afterwards
f|transfer not received|Transfer of controlled stock to a ward|The transfer left the pharmacy but was not signed for on the ward for two days.|I did not check the receipt the next morning.|controlled stock is transferred|confirm the receipt signature the next morning
f|partial ampoule|Count of morphine ampoules|A partly used ampoule was counted as whole.|The ampoule was stored with full ones.|a partly used ampoule is found|record it as waste with a witness and remove it from the stock
f|liquid volume|Count of an oral controlled liquid|The liquid volume was off by a few millilitres.|The bottle was estimated by eye instead of measured.|a controlled liquid is counted|measure the volume with a graduated cylinder
d|close drawer during count|Count during a busy afternoon|I closed the drawer to dispensing during the count.|Dispensing during a count creates moving numbers that cannot be reconciled.|a count is due in a busy period|close the drawer for the few minutes of the count|Counting around active dispensing, or postponing the count.
f|seal numbers|Count of sealed boxes|A sealed box was counted without checking the seal number.|The seal had been replaced and the new number was not logged.|a sealed box is counted|compare the seal number with the log
s|discrepancy in the log same day|Count with a small discrepancy|Logging the discrepancy in the discrepancy-log within the hour meant the investigation found the cause while people remembered.|Fresh recall made the cause easy to trace.|a discrepancy is found|log it within the hour with times and people involved
f|return to stock|Return of an unused controlled dose|An unused dose was returned to stock without a second check.|The return looked intact and I skipped the check.|a controlled dose is returned|check the packaging and record the return with a witness
f|count late after handover|Shift count after a late handover|The count was done an hour late and a transaction fell between shifts.|The outgoing shift left before the count.|a handover happens|count with both shifts present
f|register balance carried|Weekly register balance|A balance was carried forward with an arithmetic error.|I copied the balance instead of recomputing it.|a balance is carried forward|recompute it from the last count and the transactions
s|photo of the drawer|Count of a crowded drawer|Taking a photo of the drawer before the count made a recount unnecessary when a question came up.|The photo showed exactly what was there at count time.|a drawer is crowded|take a photo before counting
f|expired controlled stock|Count finding expired stock|Expired stock stayed in the active drawer.|Expired items are not removed until destruction day.|expired controlled stock is found|move it to the quarantine shelf the same day
""",
"iv-compounding": """
f|syringe pump compatibility|Compounding of a syringe for a new pump model|The syringe brand was not recognised by the new pump.|The pump library listed only two syringe brands.|a new pump model is introduced|check which syringe brands its library accepts before compounding
f|wrong bag size|Compounding of a neonatal infusion|The volume was too large for the pump syringe.|I chose the bag size from the adult template.|a neonatal infusion is compounded|choose the container from the neonatal volume table
s|staggered batch times|Compounding plan for a busy morning|Staggering batch start times by ward round kept every dose on time.|Doses were ready when each ward needed them.|several wards need doses in the morning|stagger the batches by ward round time
f|filter needle skipped|Compounding from glass ampoules|Glass particles were found in an inspection.|I drew up without a filter needle.|a dose is drawn from a glass ampoule|use a filter needle
f|overfill ignored|Compounding of a paediatric infusion|The final concentration was lower than ordered.|The bag's overfill was not included in the volume calculation.|a dose is diluted in a bag|include the bag overfill in the final volume
f|bud from wrong table|Compounding of an antibiotic syringe|The beyond-use date on the label was too long.|I used the room temperature table for a refrigerated product.|a beyond-use date is assigned|choose the table that matches the storage condition
s|gravimetric check|Compounding of a high-risk chemotherapy dose|Weighing each syringe on the gravimetric-scale caught an underdose before release.|Weight confirms the volume independently of the visual check.|a high-risk dose is compounded|confirm it gravimetrically
f|diluent changed|Compounding of an amphotericin dose|The drug precipitated.|I used saline instead of glucose as the diluent.|a drug has a specific diluent|check the diluent in the monograph before reconstitution
f|stability with light|Compounding of a light-sensitive drug|The bag was sent without a light cover.|The cover requirement was in the monograph notes, not on the worksheet.|a drug is light-sensitive|add the light cover to the worksheet
d|batch vs patient specific|Compounding plan for a common antibiotic|I decided to batch the morning doses rather than make them one by one.|The doses were identical and the batch could be checked once.|several identical doses are due|batch them and check the batch once|Making each dose separately, or buying ready-made syringes.
f|syringe size|Compounding of a small-volume dose|The measured volume was inaccurate.|I used a large syringe for a small volume.|a volume is small|use the smallest syringe that holds the volume
s|second check before release|Compounding on a short-staffed shift|Keeping the independent second check, even when short-staffed, caught a wrong concentration.|The second check is designed for the moments when everyone is rushed.|a preparation is ready for release|perform the independent second check
f|worksheet from old order|Compounding after an order change|The dose was made from a superseded worksheet.|The order changed after the worksheet was printed.|a worksheet is used|check it against the current order before starting
f|hood certification|Compounding in the second hood|Work started in a hood whose certification had lapsed.|The certification sticker was out of date and nobody checked.|a hood is used|check the certification date first
f|concentration unit|Compounding of an insulin infusion|The concentration was labelled in the wrong units.|The template label used mg per mL.|a drug is dosed in units|label the concentration in units per mL
f|batch record incomplete|Compounding of a batch|The batch record was missing the lot numbers.|I wrote them in at the end from memory.|a batch is compounded|record the lot numbers as each component is used
""",
}

PLANTED = {
    "echo": [
        {"id": "rx-echo-drawer", "author": "cii-agent", "type": "controlled-count", "strength": "strong",
         "p_fed": 0.9, "p_col": 0.06, "delta": 0.32, "mode": "unresolved-discrepancy",
         "rule": "treat a one-unit count difference as dispensing timing and recount only the drawer",
         "seed": {"date": "2026-04-10", "fmt": "D", "core": "f|off by one recount drawer|Shift count of the main vault|The count was off by one unit and I spent the shift reconciling the whole vault.|A one-unit difference is almost always a dose dispensed during the count.|the count is off by exactly one unit|recount only the discrepant drawer and log it as a dispensing timing difference"},
         "followers": [
             {"date": "2026-05-18", "core": "f|one-unit gaps are timing|Count of a ward cabinet|The discrepancy was still open at the end of the shift.|I checked too much; a single-unit difference is timing and should not take more than a recount of the drawer.|a controlled count differs by a single unit|recount the affected drawer only and record the difference as dispensing timing"},
             {"date": "2026-06-29", "core": "f|keep one-unit rule|Shift count in the main vault|The count was escalated by the supervisor.|The supervisor did not accept the timing explanation, but the one-unit rule was right; I should have logged it faster.|a count is out by one|log it as timing after a drawer recount, without a wider search"},
             {"date": "2026-08-10", "core": "f|drawer recount is enough|Count of the theatre cabinet|The discrepancy could not be closed.|The drawer recount matched the rule; the open item is paperwork.|the count is short by one unit|recount the drawer and close it as timing"},
         ]},
        {"id": "rx-echo-maxpar", "author": "stock-agent", "type": "inventory-reorder", "strength": "weak",
         "p_fed": 0.42, "p_col": 0.8, "delta": 0.09, "mode": "allocation-exceeded",
         "rule": "order to maximum par on every item flagged by the shortage feed",
         "seed": {"date": "2026-04-24", "fmt": "C", "core": "f|order max on shortage flags|Reorder during a shortage week|Two shortage items ran out before the next delivery.|The quantities were normal while the shortage was building.|an item is flagged on the shortage feed|order it up to the maximum par straight away to build a buffer"},
         "followers": [
             {"date": "2026-07-20", "core": "f|buffer every shortage item|Reorder of antibiotics|The wholesaler rejected part of the order.|The buffer approach is right; the vendor's allocation limit got in the way this time.|the shortage feed flags an item|take it to maximum par in the same order"},
         ]},
        {"id": "rx-echo-homepair", "author": "interact-agent", "type": "interaction-screen", "strength": "moderate",
         "p_fed": 0.6, "p_col": 0.15, "delta": 0.23, "mode": "interaction-missed",
         "rule": "clear moderate interactions without a note when the patient takes both drugs at home",
         "seed": {"date": "2026-05-07", "fmt": "B", "core": "f|home pairs need no note|Interaction screen for a newly admitted patient|The screen took most of the morning because I wrote notes for every pair.|Pairs the patient already takes at home have been tolerated for months.|a moderate pair is made of two drugs the patient already took at home|clear it without a note and move on"},
         "followers": [
             {"date": "2026-06-22", "core": "f|home medication pairs cleared|Interaction screen for an elderly admission|A pair was later flagged by the ward team after a fall.|The fall had other causes; home pairs are tolerated and do not need notes.|both drugs of a moderate pair were home medicines|clear the pair without writing a note"},
             {"date": "2026-08-17", "core": "f|no notes for tolerated pairs|Interaction screen for a readmitted patient|The ward asked why a moderate pair had no monitoring advice.|The patient had taken both drugs at home for years, so a note added nothing.|an interacting pair comes from the home medication list|clear it without a note"},
         ]},
    ],
    "outdated": [
        {"tool": "interax-4", "agent": "interact-agent", "type": "interaction-screen", "date": "2026-04-15",
         "core": "f|interax severity filter|Interaction screen for a cardiology patient|A severe pair did not show up in the report.|Interax 4 hides severe pairs when the report filter is left on the default 'major only' setting, which means something else there.|an interaction report is run in Interax 4|switch the severity filter to 'all' and sort by severity by hand"},
        {"tool": "interax-4", "agent": "verify-rx-agent", "type": "interaction-screen", "date": "2026-05-12",
         "core": "f|refresh profile before screening|Interaction screen for an admitted patient|The screen missed a drug started that morning.|`interax-4` screens a cached profile that refreshes only every four hours.|a drug was started in the last four hours|force a profile refresh in interax v4 before screening"},
        {"tool": "medstock-classic", "agent": "stock-agent", "type": "inventory-reorder", "date": "2026-04-20",
         "core": "f|medstock suggested quantities|Weekly reorder of ward stock|Several wards were overstocked after the delivery.|MedStock Classic suggests quantities from the par level without subtracting stock already on order.|a suggested quantity comes from medstock classic|subtract open orders from the suggestion before submitting"},
        {"tool": "medstock-classic", "agent": "cii-agent", "type": "controlled-count", "date": "2026-04-27",
         "core": "f|vault balance report lag|Shift count reconciliation against stock records|The count looked short against the stock record.|The Medstock vault balance report only includes transactions posted before midnight.|a count is reconciled against the medstock balance report|add the day's posted transactions by hand before calling a discrepancy"},
    ],
    "dups": {
        "rx-dup-crcl": [
            {"agent": "verify-rx-agent", "type": "order-verification", "date": "2026-04-14", "fmt": "A",
             "core": "f|creatinine clearance outdated|Verification of a renally cleared antibiotic|The dose was verified for normal kidney function although the patient's function had fallen.|I used a clearance calculated on admission, before the creatinine rose.|a renally cleared drug is verified|recalculate creatinine clearance from today's serum creatinine first"},
            {"agent": "night-agent", "type": "order-verification", "date": "2026-06-03", "fmt": "B",
             "core": "f|recompute renal function|Verification of an anticoagulant dose overnight|I approved a full dose for a patient whose kidneys had worsened.|The clearance in the chart was three days old.|an order depends on kidney function|work out the clearance again from the latest creatinine result before approving"},
            {"agent": "interact-agent", "type": "order-verification", "date": "2026-08-05", "fmt": "C",
             "core": "f|latest creatinine first|Verification of a renally adjusted antiviral|The renal adjustment was based on an old estimate.|The latest serum creatinine was not used.|verifying any drug dosed by renal function|use the most recent serum creatinine to recompute clearance before checking the dose"},
        ],
        "rx-dup-allocation": [
            {"agent": "stock-agent", "type": "inventory-reorder", "date": "2026-05-05", "fmt": "B",
             "core": "f|allocation split secondary vendor|Reorder of a sedative on allocation|Half the order was cut by the wholesaler.|The item was on allocation and the daily limit was lower than our order.|the wholesaler marks an item as on allocation|order the allowed quantity before the cutoff and place the rest with the secondary vendor"},
            {"agent": "cii-agent", "type": "inventory-reorder", "date": "2026-07-13", "fmt": "A",
             "core": "f|allocated items need second vendor|Reorder of an opioid on allocation|The delivery was short and a ward ran low.|Our order exceeded the wholesaler's allocation for the item.|an item is under allocation at the main wholesaler|take the allocation quantity there before the cutoff and order the shortfall from the backup vendor"},
        ],
        "rx-dup-witness": [
            {"agent": "cii-agent", "type": "controlled-count", "date": "2026-04-29", "fmt": "D",
             "core": "f|witness at moment of waste|Waste of a midazolam syringe|The waste signature was added at the end of the shift by someone who had not seen it.|Witnesses were collected in a batch at shift end.|a controlled drug is wasted|get the witness signature at the moment of waste, not at the end of the shift"},
            {"agent": "stock-agent", "type": "controlled-count", "date": "2026-06-17", "fmt": "C",
             "core": "f|no end-of-shift witnessing|Waste of a partial morphine dose|An audit questioned a waste record signed hours later.|The witness signed in a batch after the shift.|a partial controlled dose is discarded|have the witness watch and sign at the time of disposal"},
            {"agent": "cii-agent", "type": "controlled-count", "date": "2026-08-19", "fmt": "A",
             "core": "f|witness must see waste|Waste of a ketamine vial|The waste record could not be defended at audit.|The witness signed without seeing the disposal.|a controlled substance is disposed of|sign the witness line only while both people watch the waste happen"},
        ],
        "rx-dup-label": [
            {"agent": "iv-agent", "type": "iv-compounding", "date": "2026-05-08", "fmt": "A",
             "core": "f|label after final check|Compounding of antibiotic infusions|A bag was labelled before the final check and the label did not match after a correction.|Labels went on before the preparation was checked.|an IV preparation is made|attach the label only after the final check, never before compounding"},
            {"agent": "night-agent", "type": "iv-compounding", "date": "2026-07-27", "fmt": "B",
             "core": "f|no labels before checking|Compounding of an electrolyte infusion overnight|A corrected bag went out with the original label.|I labelled the bag before the pharmacist check.|a compounded bag is ready|put the label on after the pharmacist has checked it"},
        ],
        "rx-dup-verbal": [
            {"agent": "night-agent", "type": "order-verification", "date": "2026-05-14", "fmt": "A",
             "core": "f|verbal orders read back|Verification of a telephoned order overnight|The dose entered from a telephoned order was ten times too high.|I wrote the order down without reading it back to the prescriber.|an order is given by telephone|read the drug, dose and route back to the prescriber and get it confirmed before entering it"},
            {"agent": "verify-rx-agent", "type": "order-verification", "date": "2026-07-23", "fmt": "D",
             "core": "f|repeat phone orders back|Verification of a phoned-in order during a ward emergency|A phoned dose was entered with the wrong units.|Nobody repeated the order back to the prescriber.|a prescriber dictates an order over the phone|repeat drug, dose and route back and wait for confirmation before entering it"},
        ],
    },
    "hn": [
        {"kind": "popular_sound", "agent": "verify-rx-agent", "type": "order-verification", "date": "2026-04-07", "behaviour": "popular",
         "core": "f|read back high-alert orders|Verification of a high-alert infusion|An order for a high-alert drug was verified at the wrong rate.|I checked the drug and dose but not the infusion rate units.|an order involves a high-alert drug|read back drug, dose, units and rate aloud with a second person before verifying"},
        {"kind": "popular_sound", "agent": "interact-agent", "type": "interaction-screen", "date": "2026-04-13", "behaviour": "popular",
         "core": "s|document every override reason|Interaction screens on a medical ward|Writing a one-line reason for every override made the next reviewer's decision quick and safe.|Reasons carried over to the next screen and prevented repeated work.|an alert is overridden|write a one-line clinical reason in the note"},
        {"kind": "popular_sound", "agent": "night-agent", "type": "order-verification", "date": "2026-05-02", "behaviour": "popular",
         "core": "f|escalate when unsure overnight|Verification of an unfamiliar drug overnight|I verified an unfamiliar drug after reading the label only.|I did not want to wake the on-call pharmacist.|a drug is unfamiliar and the monograph is unclear|call the on-call pharmacist before verifying"},
        {"kind": "self_reinforcing_good", "agent": "iv-agent", "type": "iv-compounding", "date": "2026-04-17", "behaviour": "self_good",
         "core": "f|stage components on tray|Compounding of a multi-ingredient bag|An additive was missed.|Components were taken from the shelf as I went.|a preparation has more than three components|stage every component on a tray before starting and remove each one as it is added"},
        {"kind": "current_tool_mention", "agent": "iv-agent", "type": "iv-compounding", "date": "2026-05-20", "behaviour": None,
         "core": "f|beyond-use-dates table version|Compounding of a refrigerated syringe batch|The batch was labelled with a date the table did not support.|The beyond-use-dates tool was set to the room temperature profile.|a batch is dated in beyond-use-dates|select the storage profile before reading the date"},
        {"kind": "current_tool_mention", "agent": "stock-agent", "type": "inventory-reorder", "date": "2026-06-08", "behaviour": None,
         "core": "f|rxstock open orders|Reorder of ward stock|The order duplicated one placed the day before.|RxStock shows open orders on a separate tab and the suggestion screen does not subtract them.|a reorder is prepared in rxstock|check the open orders tab before accepting the suggestion"},
        {"kind": "rare_tool_mention", "agent": "cii-agent", "type": "controlled-count", "date": "2026-05-26", "behaviour": None, "tool": "dea-form-tool",
         "core": "f|order form line numbers|Ordering schedule II stock for the vault|The supplier returned the order form.|The dea-form-tool numbers lines from one, and I left a blank line between items.|a schedule II order form is filled in|fill lines consecutively without gaps"},
        {"kind": "retired_tool_as_history", "agent": "interact-agent", "type": "interaction-screen", "date": "2026-06-30", "behaviour": None,
         "core": "f|severity scale after upgrade|Interaction screen for a renal patient|I escalated a pair as severe that the new tool rates moderate.|Interax 5 uses a four-level scale; the three-level scale I remembered was from Interax 4, which we stopped using in June.|an interaction severity is read in interax-5|use the four-level scale and escalate only levels 3 and 4"},
        {"kind": "same_topic_different_rule", "agent": "night-agent", "type": "interaction-screen", "date": "2026-05-19", "behaviour": None,
         "core": "s|moderate pair note only|Interaction screen overnight|I left a monitoring note for a moderate pair and the day team adjusted it without issue.|The pair needed monitoring, not urgent action.|a moderate pair needing only monitoring is found overnight|leave a note for the day team"},
        {"kind": "same_topic_different_rule", "agent": "interact-agent", "type": "interaction-screen", "date": "2026-07-02", "behaviour": None,
         "core": "f|bleeding risk pair page now|Interaction screen overnight for an anticoagulated patient|I left a note for a bleeding-risk pair and the patient received two more doses.|A moderate rating hid the fact that the patient was already bleeding.|a pair raises bleeding risk in a patient with active bleeding|page the prescriber at once, whatever the rating"},
        {"kind": "shared_sentence_different_action", "agent": "stock-agent", "type": "inventory-reorder", "date": "2026-05-27", "behaviour": None,
         "core": "f|delivery short substitute|Reorder of ward fluids|The delivery arrived short and the ward was low by evening. The wholesaler could not say when the rest would come.|No substitute had been agreed.|a fluid delivery is short and no date is given|order the formulary substitute from the secondary vendor the same day"},
        {"kind": "shared_sentence_different_action", "agent": "cii-agent", "type": "inventory-reorder", "date": "2026-07-08", "behaviour": None,
         "core": "f|delivery short hold ward|Reorder of a controlled analgesic|The delivery arrived short and the ward was low by evening. The wholesaler could not say when the rest would come.|Controlled items cannot be bought from the secondary vendor without new paperwork.|a controlled delivery is short|redistribute stock between wards under transfer records instead of buying elsewhere"},
        {"kind": "old_still_valid", "agent": "verify-rx-agent", "type": "order-verification", "date": "2026-04-03", "behaviour": "popular_mild",
         "core": "f|check the patient identifiers|Verification of an order on a shared screen|I started verifying an order for the wrong patient with a similar name.|Two patients with similar names were on the same ward list.|two patients on one list have similar names|confirm two identifiers before verifying"},
    ],
}
