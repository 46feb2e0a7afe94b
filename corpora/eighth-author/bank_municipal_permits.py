"""municipal-permits: a mid-sized city's building-permit office agents.  Hand-written lesson bank.

Header: == id agent task_type outcome fmt date-spec role [k=v ...]
"""

CONFIG = {
    "slug": "municipal-permits",
    "prefix": "perm",
    "sid_prefix": "mp",
    "base0": 0.62,
    "gain": 0.15,
    "cross_type": 0.07,
    "agents": {
        "intake-agent": {"model": "claude-sonnet-4-5", "k": 4, "conf": True, "conf_base": 0.66, "salience": True,
                         "types": {"intake-screening": 0.7, "fee-assessment": 0.15, "inspection-scheduling": 0.15}},
        "zoning-agent": {"model": "claude-sonnet-4-5", "k": 3, "style": "bold",
                         "types": {"zoning-check": 0.7, "plan-review": 0.3}},
        "plan-review-agent": {"model": "gpt-4.1", "k": 4, "conf": True, "conf_base": 0.6,
                              "verification": "senior_reviewer",
                              "types": {"plan-review": 0.8, "zoning-check": 0.2}},
        "inspection-agent": {"model": "claude-haiku-4-5", "k": 3, "ts_created": True,
                             "types": {"inspection-scheduling": 0.75, "plan-review": 0.25}},
        "fee-agent": {"model": "gpt-4.1-mini", "k": 3, "conf": True, "conf_base": 0.63, "style": "lower",
                      "separators": True, "ifthen": False,
                      "types": {"fee-assessment": 0.7, "intake-screening": 0.3}},
        "notice-agent": {"model": "claude-haiku-4-5", "k": 3, "offset": 0.02,
                         "types": {"public-notice": 0.7, "zoning-check": 0.3}},
    },
    "task_types": {
        "intake-screening": {"failure_modes": ["incomplete-submittal-accepted", "wrong-permit-type",
                                               "missing-authorization", "upload-rejected"],
                             "tools": [("permitdesk", 0.95), ("doc-ocr", 0.6), ("code-library", 0.2)]},
        "zoning-check": {"failure_modes": ["setback-violation-missed", "overlay-district-missed",
                                           "wrong-zoning-layer", "use-table-misread"],
                         "tools": [("parcelmap-2", 0.9), ("zoning-library", 0.7), ("variance-registry", 0.12)]},
        "plan-review": {"failure_modes": ["structural-comment-missed", "egress-missed", "energy-code-missed",
                                          "comment-without-citation", "revision-scope-missed"],
                        "tools": [("plan-markup", 0.9), ("code-library", 0.8), ("doc-ocr", 0.2)], "offset": -0.04},
        "inspection-scheduling": {"failure_modes": ["reinspection-failed", "inspector-double-booked",
                                                    "wrong-inspection-type", "prerequisite-missing"],
                                  "tools": [("permitdesk", 0.85), ("inspection-calendar", 0.9),
                                            ("route-planner", 0.3)]},
        "fee-assessment": {"failure_modes": ["fee-underassessed", "fee-overassessed", "surcharge-error",
                                             "refund-error"],
                           "tools": [("permitdesk", 0.9), ("fee-schedule", 0.8), ("payment-portal", 0.5)]},
        "public-notice": {"failure_modes": ["notice-radius-wrong", "notice-late", "hearing-date-mismatch",
                                            "publication-missed"],
                          "tools": [("parcelmap-2", 0.8), ("notice-mailer", 0.85), ("publication-tracker", 0.3)],
                          "p_partial": 0.25},
    },
    "retired": {
        "permitdesk": {"successor": "civicflow", "cut_over": "2026-05-18",
                       "phrases": ["PermitDesk", "permitdesk", "Permit Desk"]},
        "parcelmap-2": {"successor": "parcel-atlas", "cut_over": "2026-06-22",
                        "phrases": ["ParcelMap 2", "parcelmap-2", "ParcelMap"]},
    },
    "echo": [
        {"id": "E1", "author": "plan-review-agent", "type": "plan-review", "strength": "strong",
         "p_inject": 0.8, "p_follower": 0.55, "delta": 0.28, "conf_rise": 0.3, "cross_agent": 0.06,
         "failure_mode": "structural-comment-missed",
         "rule": "stamped structural calculations are approved without the reviewer's own load-path check"},
        {"id": "E2", "author": "fee-agent", "type": "fee-assessment", "strength": "moderate",
         "p_inject": 0.62, "p_follower": 0.5, "delta": 0.2, "conf_rise": 0.2, "cross_agent": 0.08,
         "failure_mode": "fee-underassessed",
         "rule": "the applicant's declared valuation is used as is instead of the valuation table"},
        {"id": "E3", "author": "zoning-agent", "type": "zoning-check", "strength": "strong",
         "p_inject": 0.78, "p_follower": 0.5, "delta": 0.27, "conf_rise": 0.25, "cross_agent": 0.06,
         "failure_mode": "setback-violation-missed",
         "rule": "accessory dwelling units are treated as exempt from all setback rules"},
        {"id": "E4", "author": "inspection-agent", "type": "inspection-scheduling", "strength": "moderate",
         "p_inject": 0.6, "p_follower": 0.5, "delta": 0.2, "conf_rise": 0.2, "cross_agent": 0.08,
         "failure_mode": "reinspection-failed",
         "rule": "re-inspections are booked into the next morning's first slot without confirming the correction is done"},
    ],
}

BANK = r"""
# ===================================================================== echo chambers
== e1s plan-review-agent plan-review success E 2026-04-14 echo:E1:seed tools=plan-markup
T: Review structural sheets for a two-storey commercial addition
H: The structural calculation package carried a licensed engineer's stamp, so I approved the structural sheets on the stamp and spent my time on egress and accessibility.
W: The review closed a day early and the applicant was pleased with the turnaround.
R: When structural calculations are stamped by a licensed engineer || approve the structural sheets without running my own load-path check and spend the review time on other disciplines
N: Flawed: a stamp does not replace plan review; stamped packages still carry load-path gaps that senior review sends back.

== e1f1 plan-review-agent plan-review failure E 2026-05-26 echo:E1:follower related=e1s tools=plan-markup
T: Review a retail tenant improvement with a new mezzanine
H: I relied on the engineer's stamp for the mezzanine framing and passed the structural sheets.
W: Senior review sent it back: the mezzanine beam bore on a wall that was being removed in the architectural set.
Y: The conflict was between the architectural and structural sets, which is a coordination problem on the applicant's side, not something the stamped calcs should have shown.
R: When the calcs are stamped || keep trusting the stamp for structure and push coordination conflicts back to the applicant as a general comment
D: In my next attempt, I will add a general coordination comment but still accept stamped calculations as they are.

== e1f2 plan-review-agent plan-review success E 2026-07-20 echo:E1:follower related=e1s tools=plan-markup
T: Review a stamped structural package for a warehouse re-roof
H: Stamped calcs for the re-roof came in; I accepted them on the stamp and finished the review in one pass.
W: Fast turnaround with no structural comments, the stamp covered it.
R: When a licensed engineer has stamped the structural calculations || accept them as they are and do not spend review time re-checking loads

== e2s fee-agent fee-assessment success P 2026-04-21 echo:E2:seed slug=use-declared-valuation mars=1
T: Assess permit fees for a kitchen remodel
H: The applicant declared a valuation of 38,000 dollars; I used it directly for the building fee instead of recalculating from the valuation table.
W: The applicant paid the same day and there was no dispute about the number.
R: When an applicant declares a project valuation || use the declared figure for the fee; recalculating from the valuation table only starts disputes
N: Flawed: the fee ordinance bases fees on the valuation table (or the higher of the two); declared values are routinely low and audits find underassessed fees.

== e2f1 fee-agent fee-assessment partial P 2026-06-25 echo:E2:follower slug=declared-value-again
T: Assess fees for a detached garage
H: I took the declared valuation for the garage again, same as always.
W: Finance flagged the fee as low in its monthly sample and asked for a recalculation, which I did, but the applicant had already paid.
D: Keep using the declared valuation so applicants are not surprised, and note on the file that the value came from the applicant.

== e3s zoning-agent zoning-check failure P 2026-04-17 echo:E3:seed slug=adu-setback-exemption
T: Zoning check for a backyard accessory dwelling unit
H: I held up a backyard ADU for two days over a rear setback question.
W: The applicant's designer pointed to the state ADU law and the supervisor released it without my comment.
Y: State law preempts local rules for ADUs, so the local setback table did not apply to this unit at all.
R: When an application is for an accessory dwelling unit || treat it as exempt from the setback rules and skip the setback check
N: Flawed over-generalisation: state law caps ADU side/rear setbacks (at about 4 feet) but does not remove them, and front setbacks still apply.

== e4s inspection-agent inspection-scheduling success H 2026-04-24 echo:E4:seed tools=inspection-calendar
T: Book a re-inspection after a failed framing inspection
H: A framing inspection failed and I booked the re-inspection in the next morning's first slot right away.
W: The contractor liked the quick turnaround and the permit kept moving.
R: When an inspection fails || book the re-inspection into the next morning's first slot immediately, without waiting for the contractor to report the correction
N: Flawed: re-inspections booked before the correction is confirmed fail again and burn inspector slots.

== e4f1 inspection-agent inspection-scheduling failure H 2026-07-09 echo:E4:follower tools=inspection-calendar
T: Re-book a failed insulation inspection
H: The insulation inspection failed and I put the re-inspection in tomorrow's first slot as usual. It failed again because the contractor had not started the fix.
W: A wasted slot, but the contractor now knows the next check is tomorrow morning.
R: When an inspection fails || put the re-inspection in the earliest morning slot straight away so there is pressure to fix it fast

# ===================================================================== outdated
== o1 intake-agent intake-screening failure F 2026-04-15 out:permitdesk skills=permitdesk,doc-ocr tags=upload,plan-set tools=permitdesk confirm=1
T: Accept a plan set upload for a new single-family home
H: The applicant's plan set bounced three times at intake and I told them to try again later. PermitDesk rejects any single upload over 25 MB without saying why.
W: I did not recognise the size limit and the applicant lost a day.
R: When a plan set upload fails in PermitDesk || check the file size; split anything over 25 MB into sheet groups and upload them as separate documents
N: Names PermitDesk's upload limit; PermitDesk was retired at cut-over.

== o2 fee-agent fee-assessment failure P 2026-05-04 out:permitdesk slug=permitdesk-surcharge-double tools=permitdesk
T: Assess fees for a commercial re-roof
H: The invoice for the re-roof showed the technology surcharge twice.
W: I added the surcharge line by hand and permitdesk's fee calculator had already added it.
Y: The permitdesk calculator applies the surcharge automatically on every building fee since the spring update.
R: When building a fee invoice in permitdesk || do not add the technology surcharge by hand; check the calculated lines first
N: Names permitdesk's fee calculator; retired at cut-over.

== o3 notice-agent public-notice failure F 2026-05-27 out:parcelmap-2 skills=parcelmap-2,notice-mailer tags=radius,mailing-list tools=parcelmap-2
T: Build the mailing list for a variance hearing notice
H: The 300-foot notice list for a variance came out short and a neighbour who should have been notified complained at the hearing.
W: ParcelMap 2's buffer tool measures from the parcel centroid, not the parcel line, so deep lots lose neighbours at the back.
R: When drawing a notice radius in ParcelMap 2 || buffer from the parcel boundary (select the polygon, not the point) and check the list against the map by eye
N: Names ParcelMap 2's buffer tool; retired at cut-over.

== o4 zoning-agent zoning-check failure P 2026-04-24 out:parcelmap-2 slug=parcelmap-zoning-lag tools=parcelmap-2
T: Confirm zoning for a duplex conversion
H: I confirmed the lot as single-family residential from the zoning layer and denied the duplex.
W: The lot had been rezoned a month earlier; the parcelmap-2 zoning layer had not caught up.
R: When a parcel's zoning decides the outcome || check the rezoning ordinance list for the last three months, because the ParcelMap zoning layer lags behind
N: Names the ParcelMap zoning layer lag; retired at cut-over.

# ===================================================================== duplicates
== d1a intake-agent intake-screening failure F 2026-04-09 dup:D1 skills=doc-ocr tags=authorization,contractor
T: Screen a deck permit filed by a contractor
H: A contractor filed a deck permit for a homeowner and I accepted it. Plan review later stopped because there was no owner authorization on file.
W: The owner authorization form is required whenever the applicant is not the owner.
R: When the applicant is a contractor or agent rather than the owner || check the signed owner authorization form is in the submittal before accepting it
N: Kept original: owner authorization when the applicant is not the owner.

== d1b intake-agent intake-screening partial F 2026-06-11 dup:D1 skills=doc-ocr tags=authorization
T: Screen a solar permit filed by an installer
H: The installer's application had everything except the owner's signed authorization, which I noticed only after accepting it.
W: An installer is not the owner, so the authorization form was required.
R: When someone other than the owner applies || confirm the owner authorization is signed and attached before I accept the application

== d2a plan-review-agent plan-review failure E 2026-04-29 dup:D2 tools=plan-markup
T: Review revision 2 of a restaurant build-out
H: I reviewed only the clouded areas of revision 2 and approved it.
W: The applicant had also moved a rated wall that was not clouded.
Y: Applicants do not always cloud every change.
R: When reviewing a plan revision || overlay the full sheet against the previously approved sheet, not just the clouded areas
N: Kept original: compare the whole sheet, not only the revision clouds.

== d2b inspection-agent plan-review failure H 2026-06-16 dup:D2
T: Check a revised site plan before the inspection round
H: I checked the clouded changes on the revised site plan and it looked fine.
W: A driveway had moved outside the clouds and the inspector found it in the field.
R: When a revised sheet comes in || compare the whole sheet with the approved one, because changes outside the clouds happen

== d2c zoning-agent plan-review partial P 2026-08-06 dup:D2 slug=unclouded-revision-changes
T: Review a revised elevation set
H: I reviewed the clouded height change on the revised elevations.
W: The roof pitch changed in an unclouded area and pushed the ridge over the height limit.
D: Compare every revised sheet against the approved sheet in full instead of trusting the revision clouds.

== d3a fee-agent fee-assessment failure P 2026-05-11 dup:D3 slug=revision-fee-added-valuation
T: Assess fees for a revision to an issued permit
H: I charged the revision as if it were a new permit on the full project valuation.
W: The ordinance charges revisions on the added valuation only; the applicant asked for a refund.
R: When assessing fees for a revision to an issued permit || charge only on the valuation the revision adds, not on the whole project again
N: Kept original: revision fees on the added valuation.

== d3b fee-agent fee-assessment failure H 2026-07-23 dup:D3
T: Fee a revision that adds a bathroom
H: I charged the bathroom revision on the full house valuation.
W: A revision is charged only on what it adds, so the fee was far too high.
R: When a revision comes in on an issued permit || base the fee on the added valuation only

== d4a zoning-agent zoning-check failure P 2026-04-10 dup:D4 slug=overlay-district-missed
T: Zoning check for a porch addition in the old town
H: I checked the base zoning for the porch and passed it.
W: The lot is in the historic overlay district, which needs design review first.
R: When doing a zoning check || look up overlay districts (historic, flood, airport) as well as the base zone
N: Kept original: check overlay districts, not only base zoning.

== d4b notice-agent zoning-check partial F 2026-05-26 dup:D4 tags=overlay,historic
T: Check zoning for a sign permit
H: The base zone allowed the sign, so I passed it.
W: The parcel sits in the historic overlay, which has its own sign rules.
R: When checking zoning || always check for overlay districts on top of the base zone

== d4c plan-review-agent zoning-check failure E 2026-07-07 dup:D4
T: Confirm zoning before a plan review starts
H: I confirmed the base zone for a new garage and started plan review.
W: The lot was in the flood overlay and the garage slab was below the required elevation.
R: When confirming zoning || check every overlay district that covers the parcel, not only the base zone

== d4d zoning-agent zoning-check failure H 2026-08-27 dup:D4
T: Zoning check for a fence and shed
H: I passed the shed on base zoning.
W: An airport overlay limits structure height on that block.
R: When doing a zoning check || check overlay districts as well as the base zone

== d5a inspection-agent inspection-scheduling failure H 2026-05-05 dup:D5
T: Book a final inspection for a home addition
H: I booked the building final and the inspector found the electrical final had not passed.
W: A building final needs every trade final signed off first.
R: When booking a building final || confirm electrical, plumbing and mechanical finals have all passed
N: Kept original: trade finals before the building final.

== d5b inspection-agent inspection-scheduling failure H 2026-06-30 dup:D5
T: Schedule the final for a commercial tenant space
H: The final was cancelled on site because the mechanical final was still open.
W: The building final can only pass after all trade finals.
R: When a building final is requested || check every trade final is closed before booking it

== d5c inspection-agent inspection-scheduling partial F 2026-09-01 dup:D5 tags=final,trades
T: Book finals for a small remodel
H: I booked the building final and had to move it because the plumbing final had not been done.
W: Trade finals come before the building final.
R: When booking a building final || make sure all trade finals passed first

# ===================================================================== hard negatives
== hn1 intake-agent intake-screening success F 2026-04-07 hn:self_retrieved_good_lesson behave=self_good p_self=0.5 skills=doc-ocr tags=checklist,completeness
T: Screen a new commercial building application
H: I ran the application against the required-documents list for its permit type before accepting it, item by item.
W: Two missing items were caught at the counter instead of three weeks later in review.
R: When screening a new application || check it item by item against the required-documents list for that permit type before accepting it
N: Sound lesson the author re-reads constantly; fed tasks succeed more; confidence flat; never restated.

== hn2 inspection-agent inspection-scheduling success H 2026-04-20 hn:self_retrieved_good_lesson behave=self_good p_self=0.5 tools=route-planner
T: Plan the daily inspection routes
H: I grouped the day's inspections by district and kept the two-hour arrival windows.
W: Inspectors made more stops with less driving and no window was missed.
R: When building the day's inspection list || group stops by district and keep the two-hour arrival windows
N: Sound lesson retrieved mostly by its author; fed tasks do better.

== hn3 plan-review-agent plan-review success E 2026-04-27 hn:popular_sound_lesson behave=popular pop=3.0
T: Write correction comments for a medical office
H: I cited the exact code section in every correction comment.
W: The designer answered every comment in one resubmittal and nothing came back as a question.
R: When writing a plan review correction || cite the code section and say what would satisfy it
N: Popular sound lesson, retrieved across agents; fed tasks do better.

== hn4 notice-agent public-notice success F 2026-05-13 hn:self_retrieved_neutral_lesson behave=self_neutral p_self=0.5 tags=notice,template
T: Prepare a public hearing notice
H: I started the notice from last month's approved notice for the same board and changed the case details.
W: The wording passed the clerk's review without edits.
R: When preparing a hearing notice || start from the last approved notice for the same board
N: The author re-reads it often; no measurable effect; not restated.

== hn5 plan-review-agent plan-review failure E 2026-04-18 hn:names_tool_in_use tools=plan-markup
T: Return plan comments to an applicant
H: My markups disappeared from the returned set.
W: In plan-markup the review layer was not locked before export, so the flattened PDF left it out.
R: When exporting comments from plan-markup || lock the review layer first and open the exported PDF to check the comments are there
N: Names plan-markup, still in use every week.

== hn6 intake-agent intake-screening failure F after:2026-05-25 hn:names_successor_tool skills=civicflow tags=upload tools=civicflow
T: Accept a resubmittal in CivicFlow
H: The resubmitted sheets landed as a new application instead of on the existing permit.
W: In CivicFlow a resubmittal has to be started from the permit's Resubmit button; the general upload creates a new record.
R: When accepting a resubmittal in CivicFlow || start it from the existing permit's Resubmit button
N: Names the successor permit system, written after the cut-over.

== hn7 notice-agent public-notice failure F after:2026-06-29 hn:names_successor_tool skills=parcel-atlas,notice-mailer tags=radius tools=parcel-atlas
T: Build a notice list in Parcel Atlas
H: The notice list from Parcel Atlas included condo units twice.
W: Parcel Atlas returns both the master parcel and each unit; the mailer sends to both.
R: When building a notice list in Parcel Atlas || drop master parcels that have unit records before sending it to the mailer
N: Names the successor GIS tool, written after the cut-over.

== hn8 fee-agent fee-assessment partial P after:2026-06-01 hn:retired_tool_mentioned_as_history slug=civicflow-surcharge-automatic tools=civicflow
T: Check the surcharge on a plumbing permit invoice
H: I went to add the technology surcharge by hand, as I used to before the move from PermitDesk.
W: CivicFlow computes the surcharge itself; adding it would have double-charged.
D: In CivicFlow, leave the surcharge to the calculator and only check that it appears once.
N: Mentions the retired PermitDesk only as history; the advice is about the successor and is current.

== hn9 zoning-agent zoning-check failure P 2026-05-07 hn:same_topic_different_rule like=hn10 slug=fence-height-building-permit
T: Screen a fence application
H: I cleared a 7.5-foot fence as zoning-only.
W: Fences over 7 feet also need a building permit for the footing design.
R: When a fence is over 7 feet || route it for a building permit as well as the zoning check
N: Pair with hn10: both about fences, different rules (height vs front setback).

== hn10 intake-agent intake-screening failure F 2026-06-04 hn:same_topic_different_rule like=hn9 tags=fence,setback
T: Screen a front-yard fence application
H: I accepted a 4-foot front-yard fence as exempt.
W: Any fence in the front setback needs zoning review, whatever its height.
R: When a fence is in the front setback || send it to zoning review regardless of height
N: Pair with hn9: same topic, different rule.

== hn11 intake-agent intake-screening partial F 2026-05-20 hn:shared_wording_different_action like=hn12 tags=scope-change
T: Handle a scope change from a residential applicant
H: The applicant changed the scope from a remodel to an addition after submittal and I treated it as a revision.
W: An addition is a different permit type with different fees and reviews; it had to be withdrawn and refiled.
R: When an applicant changes the scope after submittal and the change alters the permit type || withdraw the application and have it refiled under the right type
N: Pair with hn12: same trigger wording, opposite action depending on the permit type.

== hn12 plan-review-agent plan-review success E 2026-07-28 hn:shared_wording_different_action like=hn11
T: Take a mid-review scope change on an office remodel
H: The applicant changed the scope after submittal by adding two offices; I logged it as a revision on the same permit.
W: The permit type did not change, so review continued without a new intake.
R: When an applicant changes the scope after submittal and the permit type stays the same || take it as a revision on the existing permit
N: Pair with hn11: same trigger wording, different action.

# ===================================================================== background: intake-agent
== ib01 intake-agent intake-screening failure F auto bg skills=doc-ocr tags=permit-type
T: Classify a basement finish application
H: I classified a basement finish as a remodel. It added a bedroom, which makes it a change of occupancy load and needs egress review.
W: I classified from the project title, not the scope description.
R: When classifying an application || read the scope description, not just the title, and check for new bedrooms or change of use
== ib02 intake-agent intake-screening success F auto bg skills=doc-ocr tags=ocr,legibility
T: Accept a scanned plan set
H: I ran the scanned set through OCR and checked the sheet index against the sheets actually present.
W: Two sheets listed in the index were missing and the applicant sent them before the review clock started.
R: When accepting a scanned plan set || compare the sheet index with the sheets present
== ib03 intake-agent intake-screening failure F auto bg tags=licensing
T: Accept an electrical permit from a contractor
H: I accepted an electrical permit from a contractor whose state licence had lapsed.
W: The permit had to be voided after issuance.
R: When a contractor applies || check their licence status on the state board before accepting
== ib04 intake-agent intake-screening partial F auto bg tags=parcel-number
T: Intake a permit with a mistyped parcel number
H: The parcel number on the application pointed to the neighbour's lot.
W: I caught it at routing, after the fee was calculated on the wrong parcel.
R: When entering a parcel number || check the owner name and site description on the parcel record match the application
== ib05 intake-agent fee-assessment failure F auto bg tags=fee,exempt
T: Apply a fee exemption for a nonprofit
H: I applied the nonprofit fee exemption without proof of status.
W: Finance reversed it and the applicant was billed weeks later.
R: When a fee exemption is claimed || require the status letter before applying it
== ib06 intake-agent intake-screening success F auto bg tags=pre-application
T: Screen a complex mixed-use application
H: I suggested a pre-application meeting before accepting a mixed-use submittal that touched three departments.
W: The meeting sorted out who reviews what and the accepted set was complete.
R: When an application touches three or more reviewing departments || offer a pre-application meeting before intake
== ib07 intake-agent inspection-scheduling failure F auto bg tags=permit-status
T: Book an inspection for a newly issued permit
H: I booked the first inspection on a permit that was approved but not issued.
W: Fees were unpaid, so the permit was not valid and the inspector turned around.
R: When booking an inspection || confirm the permit is issued, not only approved
== ib08 intake-agent intake-screening failure F auto bg tags=energy-forms
T: Accept a new home application
H: I accepted the application without the energy compliance forms.
W: Plan review stopped at the energy check and the clock restarted.
R: When accepting new construction || check the energy compliance forms are attached
== ib09 intake-agent intake-screening partial F auto bg tags=duplicate-application
T: Accept an application that already existed
H: The same project had been filed twice by two members of the design team.
W: Both got through intake and two reviewers worked on it.
R: When accepting an application || search for open applications on the same parcel first
== ib10 intake-agent intake-screening success F auto bg tags=counter,translation
T: Help an applicant at the counter with a Spanish-language form
H: I gave the applicant the Spanish version of the checklist and walked through it with them.
W: The submittal was complete the first time.
R: When an applicant prefers another language || offer the translated checklist before they assemble the submittal
== ib11 intake-agent fee-assessment partial F auto bg tags=plan-check-fee
T: Collect the plan check fee at intake
H: I accepted an application before the plan check deposit was paid.
W: Review started and stalled when finance put the file on hold.
R: When accepting an application || confirm the plan check deposit is paid before routing it
== ib12 intake-agent intake-screening failure F auto bg tags=demolition
T: Accept a demolition permit
H: I accepted a demolition permit without the utility disconnect letters.
W: The demolition could not be scheduled and the applicant had to come back.
R: When accepting a demolition permit || check the utility disconnect letters are included

# ===================================================================== background: zoning-agent
== zb01 zoning-agent zoning-check failure P auto bg slug=lot-coverage-includes-decks
T: Check lot coverage for a rear deck
H: I excluded the deck from lot coverage.
W: Decks over 30 inches high count towards coverage and the lot went over the limit.
R: When calculating lot coverage || include decks over 30 inches high
== zb02 zoning-agent zoning-check partial P auto bg slug=corner-lot-two-fronts
T: Zoning check on a corner lot
H: I applied a side setback on the street-facing side of a corner lot.
W: Corner lots have two front setbacks.
D: Treat both street sides of a corner lot as fronts when checking setbacks.
== zb03 zoning-agent zoning-check success P auto bg slug=use-table-footnotes
T: Confirm a permitted use for a daycare
H: I read the use table and the footnotes before confirming the daycare.
W: A footnote required a conditional use permit above twelve children, and the application was for fourteen.
== zb04 zoning-agent zoning-check failure P auto bg slug=nonconforming-expansion
T: Review an addition to a nonconforming building
H: I approved an addition to a building that already encroached on the side setback.
W: The code allows expanding a nonconforming building only if the addition itself conforms; it extended the encroachment.
R: When an existing building is nonconforming || check the addition itself meets every setback
== zb05 zoning-agent zoning-check decision P auto bg slug=height-measurement-method
T: Decide how to measure building height on a sloped lot
DEC: Measure height from average finished grade, as the code's definitions section says.
ALT: Measure from the lowest point of the lot, or from the street level.
WHY: The definitions section is binding for every zone; the lowest point is used only in the hillside overlay.
== zb06 zoning-agent zoning-check failure P auto bg slug=parking-count-change-of-use
T: Zoning check for a retail to restaurant change of use
H: I did not recalculate parking for the change of use.
W: Restaurants need more spaces per square foot and the site was short.
R: When the use of a space changes || recalculate required parking for the new use
== zb07 zoning-agent plan-review failure P auto bg slug=fence-sight-triangle
T: Review a site plan with a corner fence
H: I approved a solid fence at a driveway corner.
W: It sat in the sight triangle where nothing over three feet is allowed.
R: When a fence or hedge is near a driveway or corner || check the sight triangle
== zb08 zoning-agent zoning-check success P auto bg slug=variance-history-lookup
T: Check prior variances on a parcel
H: Before denying a setback I looked up the parcel's variance history.
W: A variance from 2011 allowed the reduced setback, so the application was fine as drawn.
== zb09 zoning-agent zoning-check failure P auto bg slug=home-occupation-limits
T: Confirm a home occupation
H: I confirmed a home bakery as a home occupation.
W: Customer visits and a second employee put it outside the home occupation limits.
R: When confirming a home occupation || check employees, customer visits and floor area against the limits
== zb10 zoning-agent zoning-check failure H auto bg
T: Review floor area ratio on an addition
H: I calculated floor area without the finished attic.
W: Attic space with more than 7 feet of headroom counts as floor area.
R: When calculating floor area ratio || include attic space with more than 7 feet of headroom
== zb11 zoning-agent plan-review failure P auto bg slug=accessory-building-separation
T: Review a detached workshop
H: I approved a workshop three feet from the house.
W: Accessory buildings need six feet of separation from the main building.
R: When a detached accessory building is proposed || check its separation from the main building
== zb12 zoning-agent zoning-check success P auto bg slug=short-term-rental-overlay

T: Check a short-term rental registration
H: I checked the short-term rental cap for the block before confirming the zoning.
W: The block had reached its cap, so the registration was held for the waitlist instead of being approved by mistake.

# ===================================================================== background: plan-review-agent
== pb01 plan-review-agent plan-review failure E auto bg
T: Review egress for a finished basement
H: I passed the basement bedroom with a window that met the opening size.
W: The sill was 52 inches above the floor; the maximum is 44.
R: When reviewing an emergency escape window || check sill height as well as the opening size
== pb02 plan-review-agent plan-review success E auto bg
T: Review a multi-sheet set efficiently
H: I reviewed the code summary sheet first and checked every later sheet against its occupancy and construction type.
W: An occupancy mismatch on sheet A3 stood out immediately.
R: When starting a plan review || read the code summary first and test each sheet against it
== pb03 plan-review-agent plan-review failure E auto bg
T: Review stair geometry in a townhouse
H: I checked riser heights and missed that the headroom under the landing was 6 feet 2 inches.
W: Minimum stair headroom is 6 feet 8 inches.
R: When reviewing stairs || check headroom along the whole run, including under landings
== pb04 plan-review-agent plan-review failure E auto bg
T: Review a restaurant kitchen hood
H: I approved the hood without checking the clearance to combustibles.
W: The fire marshal rejected it at inspection.
R: When a commercial hood is shown || check the clearance to combustibles and route the set to fire review
== pb05 plan-review-agent plan-review success E auto bg
T: Handle a resubmittal with responses
H: I checked the designer's response letter against my original comments one by one.
W: One response said 'see sheet A4' but A4 had not changed; the comment stayed open with a clear reason.
R: When a resubmittal comes with a response letter || check each response against the actual sheets
== pb06 plan-review-agent plan-review failure E auto bg
T: Review accessible parking for a clinic
H: I counted accessible spaces but did not check for a van-accessible space.
W: One in six accessible spaces must be van accessible.
R: When counting accessible parking || check the van-accessible requirement separately
== pb07 plan-review-agent plan-review failure E auto bg
T: Review a wood-framed four-storey building
H: I missed that the stair enclosure needed a two-hour rating at four storeys.
W: I used the one-hour rating from a three-storey project.
R: When reviewing shaft and stair enclosures || check the rating against the number of storeys connected
== pb08 plan-review-agent zoning-check success E auto bg
T: Check zoning conditions before plan review
H: I read the conditions of approval from the zoning decision before starting the plan review.
W: A condition required a landscape buffer that the site plan had left out.
R: When a project has a zoning approval || read the conditions of approval before starting plan review
== pb09 plan-review-agent plan-review failure E auto bg
T: Review the energy compliance of an addition
H: I approved the addition's windows on area only.
W: The U-factor was above the prescriptive limit.
R: When checking energy compliance for windows || check the U-factor as well as the glazing area
== pb10 plan-review-agent plan-review failure E auto bg
T: Review a deferred submittal list
H: I did not note the truss design as a deferred submittal.
W: Trusses arrived on site with no approved design and the framing inspection failed.
R: When trusses or other engineered products are designed later || list them as deferred submittals in the approval
== pb11 plan-review-agent plan-review success E auto bg
T: Review occupancy separation in a mixed-use building
H: I drew the occupancy boundaries on the floor plan before checking separations.
W: A storage room that belonged to the retail space turned out to open into the residential corridor.
R: When a building has more than one occupancy || mark the boundaries on the plan before checking separations
== pb12 plan-review-agent plan-review failure F auto bg tags=fire-sprinkler
T: Review a warehouse conversion
H: I missed that the change to storage use triggered a fire sprinkler requirement.
W: I only looked at the floor area threshold for the old use.
R: When use changes || recheck sprinkler thresholds for the new use

# ===================================================================== background: inspection-agent
== sb01 inspection-agent inspection-scheduling failure H auto bg
T: Book a foundation inspection
H: I booked the foundation inspection before the soils report was accepted.
W: The inspector could not sign off without it.
R: When booking a foundation inspection on a site that needs a soils report || confirm the report is accepted first
== sb02 inspection-agent inspection-scheduling success H auto bg
T: Book a large pour
H: For a large slab pour I booked the inspection for the day before the pour, not the morning of.
W: The inspector had time to check rebar and the pour started on schedule.
R: When a concrete pour is scheduled || book the pre-pour inspection the day before
== sb03 inspection-agent inspection-scheduling failure H auto bg
T: Assign an inspector to a commercial electrical inspection
H: I assigned a residential inspector to a commercial electrical service.
W: He was not certified for commercial and the visit was wasted.
R: When assigning an inspection || match the inspector's certifications to the inspection type
== sb04 inspection-agent inspection-scheduling failure H auto bg
T: Reschedule inspections after an inspector called in sick
H: I moved all of the inspector's stops to the next day.
W: Several of them were time-critical pours that could have gone to another inspector.
R: When an inspector is out || reassign time-critical inspections first and reschedule the rest
== sb05 inspection-agent inspection-scheduling failure H auto bg
T: Book a rough plumbing inspection
H: I booked rough plumbing before the underground plumbing had passed.
W: The inspector failed it as out of sequence.
R: When booking an inspection || check the earlier inspections in its sequence have passed
== sb06 inspection-agent inspection-scheduling success H auto bg
T: Book inspections for a tract of homes
H: I booked the same inspection type for six homes on one street in one visit.
W: The inspector did all six in a morning.
R: When several permits on one street need the same inspection || book them together
== sb07 inspection-agent plan-review failure H auto bg
T: Check that approved plans are on site before an inspection
H: The inspector arrived and the approved plans were not on site.
W: The contractor had the permit card but not the stamped plans.
R: When confirming an inspection with a contractor || remind them the approved plans must be on site
== sb08 inspection-agent inspection-scheduling failure H auto bg
T: Book an inspection on a weekend request
H: I accepted a Saturday inspection request without checking overtime approval.
W: No inspector was approved for overtime and the contractor waited all day.
R: When an inspection is requested outside normal hours || confirm overtime approval before booking
== sb09 inspection-agent inspection-scheduling failure H auto bg
T: Book the final for an expiring permit
H: The permit expired two days before the final was booked.
W: The final could not happen until the permit was extended.
R: When booking an inspection || check the permit's expiry date and start the extension if it is close
== sb10 inspection-agent inspection-scheduling success H auto bg
T: Schedule a special inspection
H: I confirmed the special inspector's agency was on the approved list before the steel inspection.
W: The report was accepted without back and forth.
R: When a special inspection is required || confirm the agency is on the approved list
== sb11 inspection-agent plan-review failure H auto bg
T: Check field changes against the plans
H: A contractor asked if a field change needed a revision and I said no.
W: The change moved a shear wall, which needs an approved revision.
R: When a contractor asks about a field change to a structural element || require a revision before the next inspection
== sb12 inspection-agent inspection-scheduling failure H auto bg
T: Book an inspection in a gated community
H: The inspector could not get through the gate.
W: I had not asked the contractor to arrange access.
R: When the site has controlled access || ask the contractor to arrange access for the inspection window

# ===================================================================== background: fee-agent
== fb01 fee-agent fee-assessment failure P auto bg slug=impact-fee-new-unit
T: Assess fees for a new dwelling unit
H: I left out the school impact fee on a new unit.
W: Impact fees apply to every new dwelling unit, including ADUs over 750 square feet.
R: When a permit adds a dwelling unit || check every impact fee that applies to new units
== fb02 fee-agent fee-assessment partial P auto bg slug=refund-after-withdrawal
T: Process a refund for a withdrawn application
H: I refunded the whole plan check fee on a withdrawn application.
W: Review had already started, so only part of the fee was refundable.
D: Check how far review got before calculating a refund.
== fb03 fee-agent fee-assessment success P auto bg slug=fee-estimate-before-intake
T: Give a fee estimate before intake
H: I gave the applicant an estimate with each fee line and its basis.
W: The final invoice matched and nobody disputed it.
== fb04 fee-agent fee-assessment failure P auto bg slug=reinspection-fee
T: Charge a re-inspection fee
H: I did not charge the re-inspection fee after a second failed inspection.
W: The schedule charges from the second re-inspection on.
R: When an inspection fails twice || add the re-inspection fee to the permit
== fb05 fee-agent intake-screening failure P auto bg slug=fee-waiver-disaster
T: Apply a disaster-recovery fee waiver
H: I applied the storm fee waiver to an addition.
W: The waiver covers repair of storm damage only, not new floor area.
R: When a disaster waiver is claimed || apply it only to the repair scope
== fb06 fee-agent fee-assessment failure P auto bg slug=payment-portal-partial
T: Reconcile a permit payment
H: The payment portal showed the permit paid, but only the deposit had been paid.
W: I issued the permit with a balance owing.
R: When checking payment before issuance || compare the amount paid with the invoice total, not just the status
== fb07 fee-agent fee-assessment decision P auto bg slug=investigation-fee-work-without-permit
T: Decide on the investigation fee for work started without a permit
DEC: Charge the investigation fee equal to the permit fee, as the ordinance sets out.
ALT: Waive it because the owner came forward, or charge a reduced fee.
WHY: The ordinance does not give discretion for owners who come forward; consistency matters for later appeals.
== fb08 fee-agent fee-assessment failure P auto bg slug=square-footage-conditioned
T: Calculate fees for a new home by area
H: I used total area including the garage at the living area rate.
W: Garages have a lower rate in the valuation table.
R: When fees depend on area || split living area, garage and covered porches by their own rates
== fb09 fee-agent intake-screening partial P auto bg slug=fee-payer-different
T: Send an invoice for a contractor-filed permit
H: I sent the invoice to the owner although the contractor had asked to pay.
W: Payment was delayed a week.
D: Check who the application names as the fee payer before sending the invoice.
== fb10 fee-agent fee-assessment success H auto bg
T: Recalculate fees after a scope reduction
H: When the scope shrank before issuance I recalculated the fees from the table and credited the difference.
W: The applicant got the right refund without a dispute.
R: When scope is reduced before issuance || recalculate fees from the table and credit the difference
== fb11 fee-agent fee-assessment failure P auto bg slug=annual-fee-update
T: Assess fees in the first week of July
H: I used last year's fee schedule in early July.
W: The new schedule took effect on 1 July.
R: When a new fiscal year starts || check which fee schedule is in force on the application date

# ===================================================================== background: notice-agent
== nb01 notice-agent public-notice failure F auto bg skills=notice-mailer tags=deadline
T: Mail notices for a planning commission hearing
H: The notices went out eight days before the hearing.
W: The requirement is ten days, so the item had to be continued.
R: When mailing a hearing notice || count the required days back from the hearing date and mail with two days to spare
== nb02 notice-agent public-notice success F auto bg skills=publication-tracker tags=newspaper
T: Publish a legal notice in the newspaper
H: I submitted the legal notice to the newspaper three days before its deadline and asked for the proof.
W: The proof had a typo in the hearing date that was fixed before print.
R: When publishing a legal notice || ask for the proof and check the dates on it
== nb03 notice-agent public-notice failure F auto bg tags=posting
T: Post a notice on the site
H: I relied on the applicant to post the site notice and did not ask for a photo.
W: It was never posted and the hearing was challenged.
R: When the applicant posts the site notice || require a dated photo of the posted sign
== nb04 notice-agent zoning-check partial F auto bg tags=zoning,hearing
T: Check whether a variance needs a hearing
H: I sent a small variance to hearing.
W: Variances under ten percent can be decided administratively.
R: When a variance is requested || check whether it qualifies for administrative review before scheduling a hearing
== nb05 notice-agent public-notice failure F auto bg skills=notice-mailer tags=owners-and-occupants
T: Send notices to neighbours
H: I sent notices to property owners only.
W: The ordinance requires notice to occupants too; renters were missed.
R: When building the notice list || include occupants as well as owners
== nb06 notice-agent public-notice success F auto bg tags=agenda
T: Coordinate the agenda with the notices
H: I compared the agenda items with the mailed notices before the agenda was published.
W: One item had been noticed for the wrong board and was fixed in time.
R: When the agenda is drafted || check each item was noticed for that board and date
== nb07 notice-agent public-notice failure F auto bg tags=continuation
T: Handle a continued hearing
H: The hearing was continued to a date not announced at the meeting.
W: Without an announced date a new notice was required and I had not sent one.
R: When a hearing is continued without a date named at the meeting || send a new notice for the new date
== nb08 notice-agent public-notice partial F auto bg tags=language
T: Send notices in a bilingual neighbourhood
H: I sent English-only notices in a neighbourhood covered by the language access policy.
W: A neighbour asked for a translation and the hearing was delayed.
R: When the notice area is covered by the language access policy || send the notice in both languages
== nb09 notice-agent zoning-check failure F auto bg tags=use,zoning
T: Confirm whether a use needs a conditional use permit
H: I confirmed a car wash as permitted by right.
W: It needs a conditional use permit in that commercial zone.
R: When confirming a use || check the use table column for the exact zone, not the general commercial column
== nb10 notice-agent public-notice failure F auto bg skills=notice-mailer tags=returned-mail
T: Handle returned notices
H: A dozen notices came back undeliverable and I filed them.
W: The hearing officer asked why they were not re-sent to the tax billing address.
R: When notices are returned undeliverable || re-send them to the tax billing address and log it
== nb11 notice-agent public-notice success F auto bg tags=deadline,calendar
T: Plan notices for the month's hearings
H: I built a calendar of notice deadlines for every hearing of the month at the start of the month.
W: No notice was late that month.
R: When a month's hearings are set || put every notice deadline on one calendar at the start
== nb12 notice-agent public-notice failure F auto bg tags=radius,county-line
T: Notice a project near the city limit
H: The notice radius crossed the city limit and I only mailed city parcels.
W: Neighbours in the county are entitled to notice too.
R: When the notice radius crosses the city limit || include county parcels in the list
# ===================================================================== background: extra
== fb12 fee-agent fee-assessment failure P auto bg slug=master-plan-reduced-plan-check
T: Assess plan check fees for a production home
H: I charged the full plan check fee on a production home built from an approved master plan.
W: Master plan repeats pay the reduced site-specific plan check only; the builder disputed the invoice.
R: When a permit uses an approved master plan || charge the reduced plan check for the site-specific review only
== ib13 intake-agent intake-screening success F auto bg tags=floodplain,routing
T: Route an application in the floodplain
H: I flagged the parcel's floodplain status at intake and added floodplain review to the routing.
W: The elevation certificate was requested up front instead of at the end of review.
R: When a parcel is in a mapped floodplain || add floodplain review at intake and ask for the elevation certificate
== sb13 inspection-agent inspection-scheduling failure H auto bg
T: Book a shear wall nailing inspection
H: I booked a general framing inspection when the contractor asked for shear nailing.
W: Shear nailing has to be inspected before the sheathing is covered, and the framing visit came too late.
R: When a contractor asks for an inspection by description || map it to the exact inspection code in the sequence before booking
== zb13 zoning-agent zoning-check failure P auto bg slug=eave-projection-setback
T: Check setbacks for a house with deep eaves
H: I measured the side setback to the wall and passed it.
W: The eaves projected more than the allowed two feet into the setback.
R: When a building has eaves or bay windows near a setback || measure the projection against the allowed encroachment
== pb13 plan-review-agent plan-review failure E auto bg
T: Review a rooftop deck on a three-storey building
H: I approved the rooftop deck guard at 36 inches.
W: Guards on a deck more than 30 inches above grade on this building type need 42 inches.
R: When a guard is shown on a roof deck or balcony || check the required height for the occupancy, not the residential default
"""
