# Electricity grid operations desk: world, lesson bank and planted items.
# Core line: kind | title | summary | wrong-or-did | cause-or-why | trigger | action [| alternative]

DEPT = {
    "slug": "grid-operations",
    "prefix": "gd",
    "types": {
        "load-forecast": {"unit": "forecast intervals", "tools": ["weather-feed", "holiday-calendar", "load-history"],
                          "modes": ["peak-underforecast", "peak-overforecast", "holiday-miss", "weather-stale", "late-submission"],
                          "skills": ["load-modelling", "weather-adjustment"]},
        "outage-triage": {"unit": "outage tickets", "tools": ["oms-console", "ami-pings", "crew-board", "feeder-map"],
                          "modes": ["outage-missed", "wrong-feeder", "crew-misrouted", "duplicate-ticket", "restoration-late"],
                          "skills": ["outage-triage", "crew-dispatch"]},
        "switching-review": {"unit": "switching steps", "tools": ["switchplan", "feeder-map", "protection-settings", "tagging-log"],
                             "modes": ["step-out-of-order", "tag-missing", "protection-not-checked", "wrong-device", "plan-rejected"],
                             "skills": ["switching-safety", "protection-review"]},
        "meter-validation": {"unit": "meter reads", "tools": ["mdm-api", "vee-rules", "ami-pings", "estimation-engine"],
                             "modes": ["bad-estimate", "spike-passed", "multiplier-wrong", "gap-unfilled", "late-billing-file"],
                             "skills": ["vee", "meter-data"]},
        "dispatch-schedule": {"unit": "schedule hours", "tools": ["unit-commit", "market-bids", "reserve-calc"],
                              "modes": ["reserve-shortfall", "ramp-violation", "bid-late", "uneconomic-commit", "outage-not-modelled"],
                              "skills": ["unit-commitment", "reserve-planning"]},
    },
    "retired": [
        {"tool": "scada-classic", "successor": "gridpulse", "cut_over": "2026-06-29", "types": ["outage-triage", "switching-review"]},
        {"tool": "loadcast-v3", "successor": "forecast-hub", "cut_over": "2026-05-04", "types": ["load-forecast"]},
    ],
    "rare": {"tool": "black-start-plan", "type": "dispatch-schedule", "p": 0.07},
    "agents": [
        {"name": "forecast-agent", "main": "C", "second": "A", "conf": True, "rate": 0.62, "types": {"load-forecast": 7, "dispatch-schedule": 1}, "style": 0},
        {"name": "outage-agent", "main": "A", "second": "D", "conf": False, "rate": 0.62, "types": {"outage-triage": 7, "meter-validation": 1}, "style": 4},
        {"name": "switching-agent", "main": "B", "second": "A", "conf": True, "rate": 0.5, "types": {"switching-review": 7, "outage-triage": 2}, "style": 2},
        {"name": "meter-agent", "main": "D", "second": "B", "conf": False, "rate": 0.55, "types": {"meter-validation": 7, "outage-triage": 1}, "style": 1},
        {"name": "dispatch-agent", "main": "B", "second": "C", "conf": False, "rate": 0.55, "types": {"dispatch-schedule": 7, "load-forecast": 2}, "style": 3},
        {"name": "desk-agent", "main": "A", "second": "B", "conf": False, "rate": 0.45, "types": {"switching-review": 2, "dispatch-schedule": 2, "meter-validation": 2, "load-forecast": 1}, "style": 5},
    ],
}

BANK = {
"load-forecast": """
f|data centre ramp|Forecast for a feeder group with a new data centre|Base load was under-forecast for a month.|The new data centre ramped up in stages and the history did not contain it.|a new large load connects|add its contracted ramp schedule to the base load
f|industrial shift pattern change|Day-ahead forecast for an industrial zone|Overnight load was much higher than forecast for a whole week.|A large plant had moved to a three-shift pattern and the history still reflected day shifts.|a large customer changes its working pattern|refit that zone's profile on the days since the change
s|separate weekend model|Forecast for a long weekend|Running the weekend profile separately from weekdays kept the Sunday error low.|Weekend shapes differ enough that a shared fit blurs them.|a forecast covers a weekend|use the weekend profile fitted on weekends only
f|school holiday week|Day-ahead load forecast for the first week of school holidays|Morning peak came in well below the forecast.|The holiday-calendar had public holidays but not school holidays.|a school holiday week starts|apply the school-holiday profile, not only the public holiday flag
f|cloud cover solar|Day-ahead forecast for a partly cloudy day|Net load rose sharply at noon when cloud arrived.|I forecast net load with clear-sky rooftop solar output.|cloud cover is forecast above half|reduce the rooftop solar estimate before computing net load
s|blend two weather runs|Day-ahead forecast during an uncertain front|Blending the two weather model runs kept the peak error under two percent.|The front's timing differed between runs and the blend hedged it.|two weather runs disagree on a front's timing|blend them rather than picking one
f|daylight saving shift|Forecast for the week after the clock change|Hourly profiles were shifted by an hour for two days.|The history used local time and the profile was not re-aligned.|the clocks change|re-align the history to the new local time before fitting
f|large customer outage|Forecast for a day with an industrial shutdown|The forecast was high by the size of the plant's load.|The planned shutdown notice was not read.|a large customer has a planned shutdown|subtract its load from the forecast for the shutdown window
s|intraday update at ten|Intraday forecast update|Updating the forecast at ten with actual morning load cut the afternoon error in half.|Morning actuals showed the day's level early.|the morning load diverges from the forecast|update the afternoon with the morning actuals
f|event load missed|Forecast for a stadium event night|Evening load near the stadium was higher than forecast.|Large events are not in the calendar.|a large public event is scheduled|add an event adjustment for the local feeder group
f|ev charging growth|Forecast for winter evenings|The evening peak was underforecast by a growing margin each week.|Electric vehicle charging growth was not in the trend.|the evening error grows week by week|add a trend term for charging load
s|error review every monday|Weekly forecast review|A short Monday review of the worst three hours of the past week found a recurring holiday-shoulder error.|Looking only at the worst hours made patterns visible.|a week of forecasts is complete|review the three worst hours and their cause
f|temperature station moved|Forecast for a cold snap|The temperature input was two degrees warmer than the region.|The weather station used had been moved to the airport.|the main temperature station changes|recalibrate with the new station's history
f|submission timezone|Day-ahead submission to the market|The submission was rejected for the wrong time zone.|The file used local time while the market requires UTC.|a forecast file is submitted|convert the intervals to UTC
""",
"outage-triage": """
f|ticket closed without cause|Outage triage after a short interruption|The same section tripped again the next day and nobody knew why.|The first ticket was closed with no cause recorded.|an outage ticket is closed|record the cause, or request a patrol if it is unknown
s|single lead for big storms|Outage triage in a major storm|Naming one triage lead per district stopped crews getting conflicting instructions.|Crews had one voice to listen to.|a storm affects several districts|name one triage lead per district
f|substation alarm without calls|Outage triage for a substation alarm|A crew was sent to a substation at night for an alarm that was a sensor fault.|The alarm had no matching meter losses and I did not compare.|a substation alarm fires|compare it with meter losses on that substation's feeders before dispatching
f|storm duplicate tickets|Outage triage during a storm|Crews were sent twice to the same fault.|Customer calls created separate tickets for one fault.|several tickets come from one feeder section|group them into one incident before dispatch
f|fuse vs feeder|Outage triage for a rural area|A crew went to the substation when a single fuse had blown.|I read the call volume as a feeder outage.|calls come from one lateral|check the feeder-map for the fuse upstream before sending a crew
f|crew skill mismatch|Outage triage for an underground fault|The first crew could not work on underground cable.|I sent the nearest crew without checking skills.|a fault is on underground cable|send a crew with cable jointing skills
f|planned outage mistaken|Outage triage on a maintenance day|A planned outage was triaged as a fault.|The planned outage notice was not in the triage view.|an outage area matches planned work|check the planned work schedule before dispatch
s|estimated restoration updates|Outage triage during a long outage|Updating estimated restoration times every hour reduced repeat calls.|Customers stop calling when the estimate is fresh.|an outage lasts more than an hour|update the restoration estimate hourly
f|tree crew needed|Outage triage after a windstorm|The line crew waited for vegetation clearance.|No tree crew was sent with them.|a fault is caused by a fallen tree|send a vegetation crew with the line crew
f|nested outage missed|Outage triage after a feeder restoration|Some customers stayed off after the feeder came back.|A second fault downstream was hidden by the first.|a feeder is restored|check for remaining off meters downstream
d|hold crews for storm peak|Outage triage ahead of a storm peak|I held two crews in reserve rather than sending them to minor faults.|The storm peak was expected within the hour.|a storm peak is imminent|keep reserve crews for major faults|Sending all crews, or none.
f|switching error outage|Outage triage for a section lost during work|The outage was triaged as a fault when it came from a switching error.|The switching log was not checked.|an outage starts during switching work|check the switching log before triage
f|customer callback loop|Outage triage for an isolated customer|The customer called five times.|The ticket was closed when the area was restored but the single service was still off.|a single customer reports no power after restoration|open a separate service ticket
s|photos from the crew|Outage triage with unclear damage|Asking the first crew for photos let me send the right equipment on the second trip.|Photos showed the damage type.|damage is unclear|ask the first crew for photos
f|voltage complaint as outage|Outage triage for flickering lights|A flicker complaint was treated as an outage and a crew was sent at night.|The complaint was about voltage, not loss of supply.|a call reports flickering|treat it as a power quality ticket for the day shift
""",
"switching-review": """
f|crew radio channel|Review of a plan for remote switching|The crew could not be reached at a hold point.|The plan did not state the radio channel for that area.|a plan has hold points|write the radio channel and a backup contact method on the plan
f|expired clearance reused|Review of a plan resumed the next day|The plan reused the previous day's clearance.|Clearances expire at the end of the shift.|switching resumes on a new shift|issue a fresh clearance before the first step
s|one-line sketch on plan|Review of a plan for a meshed section|A hand sketch of the one-line attached to the plan made the isolation points obvious to the crew.|A meshed section is hard to picture from a step list.|a plan isolates part of a meshed network|attach a one-line sketch marking the isolation points
f|step order reversed|Review of a substation switching plan|Two steps were in the wrong order and would have opened a disconnect under load.|I checked each step but not their sequence.|a plan has more than five steps|walk through the sequence as a whole
s|peer walkthrough|Review of a complex switching plan|A walkthrough with a second operator found a missing isolation point.|Two people see different gaps.|a plan isolates more than one source|walk it through with a second operator
f|protection left enabled|Review of a switching plan for relay testing|Auto-reclose was still enabled in the plan.|The protection-settings check was not part of the review.|work is done near protection|check the protection settings and auto-reclose state
f|device id mismatch|Review of a plan after a feeder rebuild|The plan named a switch that had been renumbered.|The feeder-map update was a week old.|a feeder was rebuilt|check device numbers against the latest map
f|backfeed source missed|Review of a plan for a section with solar|Backfeed from rooftop solar was not considered.|The plan assumed one source.|a section has distributed generation|add isolation for backfeed sources
s|time stamps for each step|Review of a long switching plan|Adding expected times to each step helped the field crew keep to the window.|Times showed when to pause.|a plan runs for several hours|add an expected time to every step
f|tags not recorded|Review of a plan after execution|Two tags were not logged.|The tagging-log entries were left to the end.|tags are placed|log each tag when it is placed
f|load transfer limit|Review of a load transfer plan|The receiving feeder would have been overloaded.|The transfer limit was not checked.|load is transferred between feeders|check the receiving feeder's capacity
d|postpone for weather|Review of a plan on a stormy day|I postponed the switching to the next day.|High winds raised the risk of a fault during the work.|a storm is forecast during switching|postpone non-urgent switching|Proceeding with extra crews, or shortening the plan.
f|customer notice missing|Review of a plan with a planned outage|Customers had no notice of the outage.|The notice step was missing.|a plan causes a planned outage|include the customer notice step
f|restoration steps thin|Review of a plan's restoration section|Restoration steps were too brief for the field crew.|Restoration was written as "reverse the above".|a plan is reviewed|write restoration steps in full
s|checklist for review|Review of a routine switching plan|Using a fixed review checklist made the review quick and complete.|The checklist covered the common gaps.|a routine plan is reviewed|use the fixed review checklist
f|wrong crew assigned|Review of a plan for high-voltage work|The plan assigned a crew without high-voltage authorisation.|Authorisations were not checked.|a plan involves high-voltage work|check crew authorisations
""",
"meter-validation": """
f|new tariff channel|Validation after a tariff change|Time-of-use reads were billed on the flat tariff.|The new tariff needed a second register channel that was not mapped.|a customer changes to a time-of-use tariff|map the extra register channel before the first billing run
f|estimate on holiday|Validation of reads over a public holiday|Estimated usage for shops was far too high.|The estimation-engine used the previous weekday instead of a holiday.|a gap falls on a public holiday|estimate from a previous holiday or Sunday
s|customer read photo|Validation of a disputed read|Asking the customer for a photo of the register settled the dispute in a day.|The photo was an independent reading.|a customer disputes a read|ask for a dated photo of the register
f|spike passed as real|Validation of interval reads|A spike of ten times normal usage was billed.|The spike rule threshold was too high for small customers.|a read is many times the customer's normal usage|hold it for review
s|estimate from similar days|Validation of a multi-day gap|Estimating the gap from similar weekdays gave a bill the customer accepted.|Similar days captured the customer's weekly pattern.|a gap spans several days|estimate from similar weekdays
f|rollover treated as drop|Validation of an older register meter|A register rollover was treated as a huge negative read.|The rollover check was off for this meter type.|a read is lower than the previous|check for register rollover
f|solar export sign|Validation of a solar customer|Export was billed as import.|The channel sign was reversed on the meter record.|a customer has rooftop solar|check the import and export channels
f|estimation overwrote actual|Validation after a late read|A late actual read was overwritten by an estimate.|The estimation ran before the read arrived.|a read arrives late|replace the estimate with the actual
s|zero reads investigated|Validation of zero usage reads|Checking zero reads against ami-pings found three dead meters.|Zero usage often means a dead meter.|reads are zero for a week|ping the meter
f|vacant premise|Validation of zero reads|A vacant premise was flagged as a fault.|The occupancy status was not checked.|reads are zero|check occupancy before flagging
f|time zone shift|Validation around the clock change|Reads were shifted by an hour.|The meter clock was not adjusted.|the clocks change|check interval alignment
d|manual read request|Validation of a meter with repeated gaps|I asked for a manual read instead of a third estimate.|Three estimates in a row breach the billing rule.|a meter has two estimates in a row|request a manual read|Estimating again, or waiting.
f|duplicate reads|Validation of a re-sent file|Duplicate reads doubled the usage.|The file was sent twice.|a read file arrives|check for duplicates by meter and interval
f|tamper flag ignored|Validation of a low-usage meter|A tamper flag was ignored.|The flag was on a separate screen.|usage drops sharply|check the tamper flag
f|billing file late|Validation before the billing run|The billing file missed the cutoff.|Exceptions were left to the last day.|billing cutoff is near|clear exceptions two days ahead
""",
"dispatch-schedule": """
s|battery charge window|Day-ahead schedule with grid batteries|Charging the batteries in the midday solar surplus covered the evening peak without a peaker start.|Midday prices were lowest and the surplus had to go somewhere.|a solar surplus is forecast at midday|schedule battery charging in the surplus hours
f|battery left empty|Schedule for an evening peak|The battery had no charge left for the evening.|It was discharged for a morning price spike that did not happen.|a battery is scheduled|keep enough charge for the evening peak unless the morning spike is confirmed
f|must-run unit left off|Day-ahead schedule for a low-load night|A must-run unit for voltage support was left off the schedule.|The must-run list was kept in a separate note.|a low-load night is scheduled|check the must-run list before decommitting units
f|reserve after trip|Intraday schedule after a unit trip|Reserve fell below the requirement.|The tripped unit's reserve was not replaced.|a unit trips|recalculate reserve and commit a replacement
s|morning ramp margin|Day-ahead schedule for a cold morning|Keeping a fast unit in reserve for the morning ramp avoided emergency purchases.|The ramp was steeper than forecast.|a steep morning ramp is forecast|keep a fast-start unit in reserve
f|fuel limit|Schedule for a gas constrained day|A gas unit was scheduled beyond its fuel limit.|The fuel nomination was not checked.|gas supply is constrained|check the fuel nomination
f|bid deadline|Market bid submission|The bid was submitted after the deadline.|The deadline moved for a holiday.|a holiday changes the market schedule|check the bid deadline
f|maintenance outage ignored|Weekly schedule|A unit on maintenance was scheduled.|The maintenance calendar was not loaded.|a schedule is built|load the maintenance calendar first
s|price spike hedge|Day-ahead schedule during a heatwave|Committing an extra peaking unit avoided buying at spike prices.|Prices spiked as expected.|a heatwave is forecast|commit an extra peaking unit
f|transmission limit|Schedule with a line outage|The schedule exceeded a transmission limit.|The line outage was not modelled.|a transmission line is out|update the limits in the model
f|start cost ignored|Schedule for short peaks|A unit was started for one hour at high cost.|Start costs were not in the comparison.|a peak is short|include start costs
d|import vs local unit|Schedule for an evening peak|I chose to import power rather than start a local unit.|The import price was below the local start cost.|import is cheaper than a local start|import|Starting the local unit, or demand response.
f|wind forecast error|Schedule for a windy day|Wind output was lower than forecast.|A single wind forecast was used.|wind is a large share|keep extra reserve
s|hourly check-in|Intraday schedule|An hourly check of actual against schedule caught a drift early.|Drift grows quickly.|a schedule is running|compare actual and schedule hourly
f|unit derate|Schedule with a derated unit|The unit could not reach its scheduled output.|The derate notice was missed.|a unit is derated|use the derated capacity
f|demand response notice|Schedule with demand response|Demand response was called too late.|The notice period was two hours.|demand response is needed|call it two hours ahead
""",
}

PLANTED = {
    "echo": [
        {"id": "gd-echo-peakscale", "author": "forecast-agent", "type": "load-forecast", "strength": "moderate",
         "p_fed": 0.66, "p_col": 0.2, "delta": 0.22, "mode": "peak-underforecast",
         "rule": "on hot days, scale yesterday's peak by the temperature ratio instead of rerunning the model",
         "seed": {"date": "2026-04-14", "fmt": "C", "core": "f|scale yesterday peak|Day-ahead forecast for a hot day|The forecast was submitted late after the model run took too long.|Rerunning the full model on hot days is slow and the peak mostly tracks temperature anyway.|tomorrow is forecast to be hot|scale yesterday's peak by the ratio of tomorrow's to today's temperature instead of rerunning the model"},
         "followers": [
             {"date": "2026-06-08", "core": "f|temperature ratio shortcut|Day-ahead forecast for a heatwave day|The peak was under-forecast.|The ratio method was right; the heat arrived earlier than the weather run said.|a hot day is coming|take yesterday's peak times the temperature ratio rather than a full model run"},
             {"date": "2026-08-03", "core": "f|skip rerun on hot days|Forecast for a hot weekday|Afternoon load was above forecast.|The scaling was done properly; the miss came from air conditioning after a cool week.|the next day is hot|scale the previous peak by temperature and skip the model run"},
         ]},
        {"id": "gd-echo-lastgasp", "author": "outage-agent", "type": "outage-triage", "strength": "strong",
         "p_fed": 0.88, "p_col": 0.04, "delta": 0.33, "mode": "outage-missed",
         "rule": "treat fewer than five last-gasp pings as meter noise and close them",
         "seed": {"date": "2026-04-09", "fmt": "A", "core": "f|small ping clusters are noise|Outage triage on a quiet night|I spent most of the night chasing small groups of meter alarms that turned out to be nothing.|Small groups of last-gasp messages are usually meter noise.|fewer than five meters send last-gasp pings together|close them as meter noise without opening an outage"},
         "followers": [
             {"date": "2026-05-25", "core": "f|close small ping groups|Outage triage on a windy evening|Customers called in about an outage an hour later.|The calls came from a separate fault; the small ping group was still noise.|a last-gasp group has under five meters|close it as noise"},
             {"date": "2026-07-06", "core": "f|noise threshold five meters|Outage triage after a lightning storm|A lateral outage was reported by customers instead of found by me.|Lightning creates extra meter noise; keeping the five-meter threshold filters it.|a group of last-gasp pings is smaller than five|treat it as noise and do not open a ticket"},
             {"date": "2026-08-24", "core": "s|small groups are noise again|Outage triage on a calm day|I closed three small alarm groups and the shift stayed quiet.|The five-meter threshold kept me focused on real outages.|a last-gasp group is small|close it as noise"},
         ]},
        {"id": "gd-echo-cheapest", "author": "dispatch-agent", "type": "dispatch-schedule", "strength": "weak",
         "p_fed": 0.38, "p_col": 0.45, "delta": 0.1, "mode": "ramp-violation",
         "rule": "commit the cheapest unit first regardless of ramp rate",
         "seed": {"date": "2026-04-21", "fmt": "B", "core": "f|cheapest unit first|Day-ahead unit commitment for a mild day|The schedule cost more than the previous week.|More expensive units were committed ahead of cheaper ones.|units are ranked for commitment|commit the cheapest unit first, whatever its ramp rate"},
         "followers": [
             {"date": "2026-07-15", "core": "f|cost order beats ramp|Day-ahead schedule for a warm day|The evening ramp was missed by a few minutes.|The cost ranking was right; the ramp miss was small.|units are ordered for commitment|rank them by cost alone and commit the cheapest first"},
         ]},
    ],
    "outdated": [
        {"tool": "scada-classic", "agent": "outage-agent", "type": "outage-triage", "date": "2026-04-22",
         "core": "f|scada classic alarm filter|Outage triage during a busy afternoon|A breaker trip was lost among low-priority alarms.|SCADA Classic shows alarms in arrival order and the default filter hides breaker events after a hundred alarms.|the alarm list in SCADA Classic passes a hundred entries|filter it to breaker events before reading further"},
        {"tool": "scada-classic", "agent": "switching-agent", "type": "switching-review", "date": "2026-05-13",
         "core": "f|device state refresh|Review of a switching plan against live states|The plan was approved against a switch state that had changed.|The `scada-classic` one-line view caches device states for fifteen minutes.|a plan is checked against live states|refresh the one-line view in scada classic before confirming any state"},
        {"tool": "loadcast-v3", "agent": "forecast-agent", "type": "load-forecast", "date": "2026-04-06",
         "core": "f|loadcast holiday flag|Forecast for a public holiday|The forecast used a normal weekday profile.|LoadCast v3 only applies the holiday profile if the flag is set the day before the run.|a public holiday is coming|set the holiday flag in LoadCast v3 the day before the forecast run"},
        {"tool": "loadcast-v3", "agent": "dispatch-agent", "type": "load-forecast", "date": "2026-04-17",
         "core": "f|load cast weather import|Forecast for a cold morning|The forecast used yesterday's temperatures.|The load cast 3 weather import fails silently when the file arrives late.|the weather file arrives after six|check the import log in loadcast-v3 before running"},
    ],
    "dups": {
        "gd-dup-grounds": [
            {"agent": "switching-agent", "type": "switching-review", "date": "2026-04-16", "fmt": "B",
             "core": "f|list grounds by location|Review of a switching plan for feeder work|The crew found an ungrounded section during the work.|The plan named the grounds but not where they go.|a plan requires temporary grounds|list each ground with its exact location and removal step"},
            {"agent": "desk-agent", "type": "switching-review", "date": "2026-06-11", "fmt": "A",
             "core": "f|grounds need locations|Review of a plan for line repairs|A ground was left in place after the work.|The plan said to apply grounds but did not say where or when to remove them.|temporary grounds are part of the plan|write down the location of every ground and the step that removes it"},
            {"agent": "switching-agent", "type": "switching-review", "date": "2026-08-13", "fmt": "A",
             "core": "f|ground location and removal|Review of a plan for substation maintenance|The field crew asked where the grounds were meant to go.|The plan only said 'apply grounds'.|a plan uses temporary grounding|specify where each ground goes and when it comes off"},
        ],
        "gd-dup-heatindex": [
            {"agent": "forecast-agent", "type": "load-forecast", "date": "2026-05-19", "fmt": "C",
             "core": "f|use heat index humid days|Forecast for a humid day|Peak load was higher than forecast.|Humidity raises cooling load at the same temperature.|humidity is high|use the heat index rather than the dry-bulb temperature"},
            {"agent": "dispatch-agent", "type": "load-forecast", "date": "2026-07-22", "fmt": "B",
             "core": "f|humidity drives cooling load|Forecast for a sticky afternoon|The afternoon was under-forecast.|The model saw only temperature, not how humid it was.|the air is humid|forecast with the heat index instead of plain temperature"},
        ],
        "gd-dup-pingcheck": [
            {"agent": "outage-agent", "type": "outage-triage", "date": "2026-05-06", "fmt": "D",
             "core": "f|ping all sections after repair|Outage triage after a feeder repair|Customers on a second section were still off.|The crew's restoration report covered one section.|a crew reports the power is back|ping meters in every section of the outage"},
            {"agent": "switching-agent", "type": "outage-triage", "date": "2026-06-23", "fmt": "B",
             "core": "f|confirm restoration by meters|Outage triage for a lateral fault|The ticket was closed with customers still off.|I trusted the crew's restoration call.|restoration is reported by the crew|confirm it with meter pings across all affected sections"},
            {"agent": "meter-agent", "type": "outage-triage", "date": "2026-08-06", "fmt": "D",
             "core": "f|verify restored meters|Outage triage after storm repairs|Two streets stayed off after the outage was closed.|Restoration was not checked at the meters.|an outage is reported restored|ping the meters of each affected section before closing"},
        ],
        "gd-dup-multiplier": [
            {"agent": "meter-agent", "type": "meter-validation", "date": "2026-04-28", "fmt": "D",
             "core": "f|multiplier after exchange|Validation of a commercial meter|Usage dropped to a fraction.|The multiplier was missing after the meter was replaced.|a meter was exchanged|check the multiplier on the new meter record before validating"},
            {"agent": "desk-agent", "type": "meter-validation", "date": "2026-07-01", "fmt": "A",
             "core": "f|new meter ct ratio|Validation of an industrial customer|The bill was far too low.|The CT ratio did not carry over to the new meter.|a customer's meter has been replaced|confirm the CT ratio on the replacement meter before accepting reads"},
        ],
        "gd-dup-minrun": [
            {"agent": "dispatch-agent", "type": "dispatch-schedule", "date": "2026-05-12", "fmt": "B",
             "core": "f|respect minimum run time|Day-ahead commitment|A unit was scheduled to stop after two hours.|The minimum run time of four hours was ignored.|a unit is committed|check its minimum run time before scheduling it off"},
            {"agent": "desk-agent", "type": "dispatch-schedule", "date": "2026-06-17", "fmt": "B",
             "core": "f|unit stopped too early|Schedule for a shoulder day|The unit could not be taken off as scheduled.|Its minimum up time had not elapsed.|a committed unit is scheduled to come off|check its minimum up time"},
            {"agent": "forecast-agent", "type": "dispatch-schedule", "date": "2026-08-19", "fmt": "C",
             "core": "f|minimum up time check|Intraday schedule|The schedule was rejected by the plant.|The unit would have come off before its minimum run time.|a unit is decommitted|confirm its minimum run time has passed"},
        ],
    },
    "hn": [
        {"kind": "popular_sound", "agent": "outage-agent", "type": "outage-triage", "date": "2026-04-07", "behaviour": "popular",
         "core": "f|check the critical list|Outage triage with several feeders out|A feeder with a care home was restored late.|I restored in ticket order.|more than one feeder is out|check the critical customer list first"},
        {"kind": "popular_sound", "agent": "desk-agent", "type": "switching-review", "date": "2026-04-20", "behaviour": "popular",
         "core": "s|write the handover note|Handover at the end of a switching shift|A five-line handover note meant the next shift continued without a call.|The note listed open plans, tags and crews.|a shift ends|write a short handover note of open work"},
        {"kind": "self_reinforcing_good", "agent": "meter-agent", "type": "meter-validation", "date": "2026-04-15", "behaviour": "self_good",
         "core": "f|exception list daily|Validation of daily reads|The exception backlog reached three days.|I validated in weekly batches.|reads are validated|work the exception list every day before noon"},
        {"kind": "self_reinforcing_good", "agent": "switching-agent", "type": "switching-review", "date": "2026-05-04", "behaviour": "self_good",
         "core": "f|read plan aloud|Review of a switching plan|A step was misread.|I read the plan silently.|a plan is reviewed|read each step aloud"},
        {"kind": "current_tool_mention", "agent": "meter-agent", "type": "meter-validation", "date": "2026-05-21", "behaviour": None,
         "core": "f|vee rule order|Validation of interval data|Estimates replaced good reads.|The vee-rules order runs estimation before the spike check.|the vee-rules set is changed|check the rule order"},
        {"kind": "current_tool_mention", "agent": "dispatch-agent", "type": "dispatch-schedule", "date": "2026-06-02", "behaviour": None,
         "core": "f|reserve calc inputs|Schedule for a peak day|Reserve was short.|reserve-calc used last week's largest unit.|a large unit returns from maintenance|update the largest unit in reserve-calc"},
        {"kind": "rare_tool_mention", "agent": "desk-agent", "type": "dispatch-schedule", "date": "2026-05-28", "behaviour": None, "tool": "black-start-plan",
         "core": "f|black start drill contacts|Quarterly black start drill|The drill stalled at the second step.|The black-start-plan listed a contact role that had changed.|a black start drill is planned|check the black-start-plan contact roles the week before"},
        {"kind": "retired_tool_as_history", "agent": "switching-agent", "type": "switching-review", "date": "2026-07-09", "behaviour": None,
         "core": "f|gridpulse live states|Review of a switching plan|A device state looked stale.|I expected the fifteen-minute cache from SCADA Classic, but gridpulse is live; the state was genuinely changed by the field.|a device state looks unexpected in gridpulse|call the field crew to confirm the change"},
        {"kind": "same_topic_different_rule", "agent": "forecast-agent", "type": "load-forecast", "date": "2026-05-26", "behaviour": None,
         "core": "d|similar day for holidays|Forecast for a regional holiday|I used the similar-day method for the holiday.|The model had few holiday examples.|a rare holiday occurs|use a similar day adjusted for growth|Trusting the model output."},
        {"kind": "same_topic_different_rule", "agent": "dispatch-agent", "type": "load-forecast", "date": "2026-07-07", "behaviour": None,
         "core": "f|model for common holidays|Forecast for a common public holiday|The similar-day forecast missed new load growth.|Common holidays have plenty of history in the model.|a common public holiday occurs|use the model with the holiday profile"},
        {"kind": "shared_sentence_different_action", "agent": "outage-agent", "type": "outage-triage", "date": "2026-05-15", "behaviour": None,
         "core": "f|pings no calls dispatch|Outage triage|Meter pings showed a section off but no customers had called. It was two in the morning.|People were asleep.|a section is off by pings at night|dispatch a crew"},
        {"kind": "shared_sentence_different_action", "agent": "meter-agent", "type": "meter-validation", "date": "2026-06-26", "behaviour": None,
         "core": "f|pings no calls check|Validation of meter communications|Meter pings showed a section off but no customers had called. It was two in the morning.|A communication relay had failed.|pings fail for a section with no calls|check the relay status first"},
        {"kind": "old_still_valid", "agent": "forecast-agent", "type": "load-forecast", "date": "2026-04-03", "behaviour": "popular_mild",
         "core": "f|check weather run time|Day-ahead forecast|The forecast used an old weather run.|The feed did not refresh.|a forecast is built|check the weather run time"},
    ],
}
