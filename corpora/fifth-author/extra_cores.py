"""Further ordinary lesson cores, merged into each department's CORES."""

EXTRA = {
"security-operations": {
"alert-triage": [
"DNS tunnelling volume | A high-volume DNS alert fired on a build server. | I assumed package mirrors and closed it. | Tunnelling shows long random subdomains; mirrors show a few repeated names. | a DNS volume alert fires | look at the subdomain length and entropy before deciding it is mirror traffic",
"Alert enrichment failures | An alert arrived with empty user and host fields. | I triaged it as low value because there was nothing to go on. | Empty enrichment usually means the lookup failed, not that the event is harmless. | an alert shows empty enrichment fields | re-run the enrichment by hand in siem-search before judging it",
"Test accounts in production | A privilege escalation alert came from an account named like a test account. | I treated it as a test and closed it. | Attackers like test-looking names, and real test accounts should not exist in production. | an alert involves an account that looks like a test account | confirm it is registered as a test account before closing, and raise a ticket if it is not",
"Repeated benign closures | The same benign alert was closed by hand forty times in a month. | Nobody asked for a tuning change. | Repeated manual closures are a tuning request waiting to be written. | closing the same benign pattern for the fifth time in a month | open a tuning ticket with detection engineering, with the closures as evidence",
"Cloud console logins | A cloud console login from a new country fired on an admin account. | I waited for the owner to reply before acting. | Cloud admin sessions can create persistence in minutes. | an unexplained cloud admin login is seen | revoke the session first and ask the owner afterwards",
"Mail forwarding rules | An alert showed a new inbox rule forwarding mail outside. | I closed it when the user said they set it up. | Attackers create forwarding rules and users often do not remember their own settings. | an external forwarding rule alert fires | check when and from where the rule was created before accepting the user's word",
],
"phishing-response": [
"Reply-to mismatch | A message's reply-to address pointed to a free mail service. | I only looked at the from line. | The reply-to is where the answers go. | analysing a reported message | compare the reply-to with the from domain",
"Shortened links | A reported message used a link shortener. | The url-rewriter verdict was clean because it checked the shortener only. | Shorteners hide the final destination. | a reported message has a shortened link | expand the link in the analysis environment and check the final address",
"Consent phishing | A user granted an unknown app access to their mailbox after a phishing message. | I reset the session but left the app consent. | App consents survive session resets. | a phishing message leads to an app consent screen | revoke the app's consent as well as the sessions",
"Quarantine release requests | A user asked to release a quarantined message urgently. | I released it because the user was senior. | Urgency is a common lure and seniority does not make the message safe. | a user asks for an urgent release from quarantine | analyse the message the same way as any report before releasing",
"Voice follow-up | After a phishing message, users got calls claiming to be the help desk. | We only handled the email. | Callback phishing combines mail and phone. | a phishing message asks the user to call a number | warn the help desk and tell users the help desk never asks for sign-in codes by phone",
],
"vulnerability-patching": [
"Compensating controls | A critical flaw could not be patched for a month on a medical device. | I left it with no control. | Unpatchable systems still need a control. | a critical flaw cannot be patched within the deadline | apply network isolation or a block rule and record it as a compensating control",
"Owner confirmation | A patch window was booked but the system owner was on leave. | Nobody could approve the restart. | Windows need an available owner. | booking a patch window | confirm the owner or deputy will be reachable during the window",
"Browser extensions | A vulnerable browser extension was installed across the fleet. | I looked for an operating system patch. | Extensions update through the browser's policy. | a finding is in a browser extension | push the update or removal through browser policy",
"Firmware on laptops | A firmware flaw affected a laptop model. | I pushed it to all models. | Firmware packages are model specific. | deploying firmware | target by exact model and test on one device first",
"Reporting to risk | The monthly report showed counts only. | Risk owners could not see the exposure. | Counts do not show which flaws matter. | writing the monthly patch report | show known-exploited and internet-facing findings separately from the totals",
],
"access-review": [
"Temporary access | Temporary project access stayed for a year. | It had no end date. | Temporary grants need an expiry. | granting temporary access | set an end date at grant time",
"Reviewer delegation | A reviewer delegated their review to a junior colleague. | The colleague approved access they could not judge. | Delegation moves the decision to someone without context. | a reviewer delegates | check the delegate is at least a team lead for those users",
"Evidence screenshots | Auditors rejected screenshots as evidence. | I relied on screenshots of the console. | Screenshots can be edited; exports with timestamps cannot easily. | collecting review evidence | export the decisions with system timestamps instead of screenshots",
"Privileged groups first | A large review ran out of time before the privileged groups. | I went alphabetically. | Privileged access carries the most risk. | starting a review | do privileged groups first",
"External guests | Guest accounts from a finished partner project were still active. | Guests were not in the review. | Guest accounts sit outside the roster. | scoping a review | include external guest accounts and their sponsors",
],
"incident-writeup": [
"Glossary for non-technical readers | Leadership asked what three acronyms meant. | I assumed they knew. | Acronyms stop non-technical readers. | writing for leadership | spell out every acronym on first use",
"Report deadlines | The post-incident report was due in five days and took three weeks. | I waited for every detail. | A late report loses attention. | the report deadline approaches with open questions | publish with the open questions listed and update later",
"Customer communications | The write-up did not include what customers had been told. | Support and legal had different versions. | Consistency across statements matters. | an incident had customer communications | attach the exact text sent to customers",
"Cost of the incident | Leadership asked for the cost and the report had none. | I had not tracked the hours. | Cost drives investment decisions. | writing up a significant incident | include an estimate of effort and direct cost",
"Review meeting notes | Decisions from the review meeting were not in the report. | People remembered them differently. | Unrecorded decisions get lost. | after an incident review meeting | add the decisions and their owners to the report the same day",
],
},
"payroll-operations": {
"pay-run": [
"Payroll calendar changes | A public holiday moved the cut-off and nobody told managers. | Timesheets came in late. | Managers plan to the usual cut-off. | a cut-off date moves | tell managers a week ahead and again a day before",
"Manual payments register | A manual cheque was issued and not recorded in the system. | Year-end totals were wrong. | Manual payments must go through the system too. | a manual payment is made | enter it in the system as a manual payment the same day",
"Deductions with caps | A pension deduction continued past its annual cap. | The cap was not configured. | Some deductions stop at limits. | a deduction has an annual limit | configure the limit in the deduction setup",
"Shift differentials | A night shift premium was missing for a new site. | The site was not linked to the rule. | Premium rules are site based. | a new site opens | link it to the shift premium rules before the first run",
"Approval evidence | An auditor asked who approved a run. | The approval was by chat message. | Approvals must be recorded in the system. | approving a run | approve in the system, not by message",
"Reissued payments | A lost payment was reissued without stopping the original. | Both were cashed. | The original must be stopped first. | reissuing a payment | confirm the stop on the original before reissuing",
],
"tax-filing": [
"Local tax rates at year start | Local rates changed on the first of January. | The tables updated late. | Local changes are often missed. | a new year starts | check local rates for the top localities before the first run",
"Agency portal access | The person with portal access was away on the filing day. | The filing was late. | Access must not depend on one person. | setting up agency portal access | give access to at least two people",
"Reconciling deposits | Deposits did not match liabilities for a quarter. | A deposit was posted to the wrong period. | Deposits must be matched to periods. | closing the month | match each tax deposit to its liability period",
"Nonresident employees | A nonresident employee was taxed as resident. | The residency form was missing. | Residency decides the withholding method. | a hire is nonresident | collect the residency documentation and set the method",
"Changes in company details | Our address change was not sent to the agencies. | Notices went to the old address. | Agencies need updates. | company details change | update every agency account",
],
"garnishment": [
"Exempt income | A garnishment was taken from an exempt reimbursement. | I used total pay. | Reimbursements are not earnings. | computing garnishable pay | exclude reimbursements",
"Minimum wage protection | A garnishment left an employee below the protected amount. | I applied a percentage only. | Federal rules protect a minimum amount. | calculating a creditor garnishment | also check the protected minimum amount",
"Payment references | A remittance arrived without the case number. | The agency could not match it. | Payments need references. | sending a remittance | include the case number and employee identifier",
"Bankruptcy | An employee filed for bankruptcy. | Creditor withholding continued. | Bankruptcy can stop creditor garnishments. | notice of bankruptcy arrives | stop creditor garnishments and ask legal about support orders",
"Employee notices | An employee was surprised by a deduction. | No notice had been given. | Some states require employer notice. | setting up a garnishment | send the required notice to the employee",
],
"bonus-accrual": [
"Payout timing | A bonus was paid a month late. | The plan's payout date was not on the calendar. | Payout dates are fixed by the plan. | a plan is set up | add its payout dates to the calendar",
"Approval before payout | A bonus was paid without the final approval. | The amount was later reduced. | Payouts need approval. | preparing a payout | get the written approval before sending to payroll",
"Accrual review with finance | The accrual surprised the finance team. | I did not share it. | Finance needs to see large accruals. | a monthly accrual changes a lot | review it with finance before booking",
"Retention bonuses | A retention bonus was accrued as a normal bonus. | It had a vesting period. | Retention bonuses are accrued over the vesting period. | booking a retention bonus | spread the accrual over the vesting period",
"Commission versus bonus | Commissions were accrued under the bonus plan. | The plans differ. | Commissions follow deals. | booking commissions | use the commission plan and deal data",
],
"new-hire-setup": [
"Employee numbers | A new hire was given an employee number already in use. | Manual numbering. | The system assigns numbers. | creating an employee | let the system assign the number",
"Pay group | A monthly hire was put in the biweekly group. | Paid twice a month wrongly. | Pay group follows the contract. | setting up a hire | match the pay group to the contract",
"Union membership | A union hire was set up without dues. | Dues were missed. | Union agreements require dues. | a hire is in a union role | set up the dues deduction",
"Relocation payments | A relocation payment was made tax-free. | It was taxable. | Relocation is usually taxable. | paying relocation | treat it as taxable unless told otherwise",
"Offer letter checks | The salary entered did not match the offer. | I used the request form. | The signed offer is the source. | entering salary | check against the signed offer",
],
},
"insurance-claims": {
"first-notice-of-loss": [
"Storm surge versus wind | A coastal claim mixed flood and wind damage. | I logged it as wind only. | Flood is often a separate policy. | a coastal storm claim comes in | ask about both water and wind damage",
"Contact preferences | A claimant preferred text but got calls. | They missed the calls. | Contact preference matters. | taking a claim | record the claimant's preferred contact method",
"Recorded statements | A claimant was asked for a recorded statement at intake. | They refused and got upset. | Statements belong with the adjuster. | taking a first notice | do not ask for a recorded statement",
"Previous damage | A roof claim included old damage. | I did not ask. | Old damage is excluded. | a roof claim is reported | ask when the damage was first noticed",
"Rental car needs | A motor claimant had no car for work. | I did not mention rental cover. | Many policies include rental cover. | a motor claimant's car cannot be driven | check rental cover and explain it",
"Pets and liability | A dog bite was reported as property damage. | Wrong line. | Dog bites are liability claims. | an animal caused injury | log it as liability",
],
"adjuster-assignment": [
"Trainee adjusters | A trainee got a complex claim. | They struggled. | Trainees need simple claims. | assigning to a trainee | choose simple claims and name a mentor",
"Time zones | A claim was assigned to an adjuster in a different time zone. | Calls were at odd hours. | Contact hours matter. | assigning remotely | prefer adjusters in the claimant's time zone",
"Vehicle type | A motorbike claim went to a car adjuster. | Specialist knowledge was missing. | Bikes need specialists. | a claim involves an unusual vehicle | use the specialty list",
"Escalated complaints | A claim with a complaint stayed with the same adjuster. | The complaint grew. | Complaints may need a new handler. | a claim has a formal complaint | offer reassignment to a senior adjuster",
"Weekend coverage | Weekend claims waited until Monday. | No weekend roster. | Urgent claims need weekend cover. | urgent claims arrive on a weekend | assign to the weekend duty adjuster",
],
"fraud-screening": [
"Bank account changes | A claimant changed bank details just before payment. | I did not check. | Late changes are a risk indicator. | bank details change just before a payment | verify the change with the claimant through a known channel",
"Witness statements | Two witnesses gave identical statements. | I did not notice. | Identical wording suggests coaching. | reviewing witness statements | compare wording between statements",
"Medical billing patterns | A clinic billed the same treatments for all claimants. | I looked at claims alone. | Patterns show at clinic level. | a clinic appears on many injury claims | compare its billing across claims",
"Photo reuse | A claim photo had appeared in an earlier claim. | I did not check. | Reused photos are common. | a claim has photos | run a reverse image check against our claims",
"Excessive urgency | A claimant pushed hard for instant payment. | I sped up. | Pressure is an indicator. | a claimant presses for unusually fast payment | complete the normal checks",
],
"subrogation": [
"Rental company claims | A rental car damaged by a renter. | I pursued the renter only. | Rental agreements may transfer liability. | a rental vehicle is involved | check the rental agreement",
"Government entities | A claim against a city had a short notice period. | Missed. | Public bodies have short notice rules. | the responsible party is a public body | send notice within its special deadline",
"Recovery reporting | Recoveries were not reported to reinsurers. | Missing credits. | Reinsurers share in recoveries. | a large recovery is received | report it to reinsurance",
"Salvage and subrogation together | Salvage was sold before the expert inspection. | Evidence lost. | Salvage can be evidence. | a product defect claim has salvage | hold the salvage until inspection",
"Interest on recoveries | A delayed recovery came without interest. | I did not claim it. | Interest may be due. | a recovery is paid late | claim interest where allowed",
],
"settlement": [
"Structured settlements | A large injury settlement was paid as a lump sum. | A structure was better for the claimant. | Structures protect long-term needs. | a large injury settlement is being agreed | discuss a structured option",
"Currency of payment | A foreign claimant was paid in our currency. | Fees reduced the amount. | Payment currency matters. | paying abroad | pay in the claimant's currency where possible",
"Duplicate payments | A settlement was paid twice. | Two approvals in two systems. | Payments must be checked for duplicates. | approving a payment | check for a prior payment on the claim",
"Settlement authority records | An auditor could not see who approved a settlement. | Approval was verbal. | Authority must be documented. | approving a settlement | record the approval in the claim file",
"Post-settlement complaints | A settled claimant complained about repairs. | I reopened the whole claim. | Complaints may be about repairers. | a complaint arrives after settlement | check whether it concerns the repairer first",
"Deductible waivers | A deductible was waived without authority. | It had to be recovered. | Waivers need approval. | a deductible waiver is requested | get authority before agreeing",
],
},
}

# Ordinary cores whose lesson is carried by a planted item instead (kept out so that no
# unplanted duplicate of a planted lesson exists).
REMOVED_TITLES = {
    "security-operations": ["Asset criticality lookup", "Exploited-in-the-wild first", "Clicked-link follow-up",
                            "Timestamp consistency", "Verification scans", "Shift handover notes",
                            "Executive impersonation"],
    "payroll-operations": ["Preview sign-off", "Filing confirmations", "Bank holiday shifts the file date",
                           "Quarterly reconciliation before filing", "Verify bank details", "Priority between orders",
                           "Attainment data lag", "Terminated employees with orders", "Order end dates"],
    "insurance-claims": ["Loss date versus report date", "Signed releases", "Limitation periods",
                         "Ring detection by shared details", "Weather checks", "Liens", "Notice to the other carrier",
                         "Coverage questions on the call", "Injury mentioned in passing", "Catastrophe coding"],
}


def merged_cores(dept, base):
    out = {}
    removed = set(REMOVED_TITLES.get(dept, []))
    seen = set()
    for t in sorted(set(base) | set(EXTRA.get(dept, {}))):
        lst = []
        for c in list(base.get(t, [])) + list(EXTRA.get(dept, {}).get(t, [])):
            title = c.split(" | ")[0].strip()
            if title in removed:
                seen.add(title)
                continue
            lst.append(c)
        out[t] = lst
    missing = removed - seen
    assert not missing, missing
    return out
