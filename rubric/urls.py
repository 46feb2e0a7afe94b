"""URL maps of the quality rubric: rating rounds, calibration, quality and agreement pages."""

from django.urls import path

from rubric.views import agreement, calibration, discussion, quality, ratings

rounds = (
    [
        path("", ratings.round_list, name="list"),
        path("new/", ratings.round_new, name="new"),
        path("<int:pk>/", ratings.round_detail, name="round"),
        path("<int:pk>/close/", ratings.round_close, name="close"),
        path("<int:pk>/ratings.csv", ratings.round_export, name="export"),
        path("<int:pk>/rate/", ratings.rate, name="rate"),
        path("<int:pk>/rate/<int:assignment>/", ratings.rate_submit, name="submit"),
        path("<int:pk>/rate/<int:assignment>/change/", ratings.rate_change, name="change"),
        path("<int:pk>/items/<int:position>/", discussion.item_discussion, name="item"),
        path("<int:pk>/items/<int:position>/comments/", discussion.item_comment, name="comment"),
        path(
            "<int:pk>/items/<int:position>/mentions/",
            discussion.mention_suggestions,
            name="mention-suggestions",
        ),
    ],
    "ratings",
)

calibration_pages = (
    [
        path("", calibration.status, name="status"),
        path("start/", calibration.start, name="start"),
        path("attempts/<int:pk>/", calibration.attempt_detail, name="attempt"),
        path("attempts/<int:pk>/items/<int:position>/", calibration.item, name="item"),
        path("attempts/<int:pk>/items/<int:position>/rate/", calibration.rate, name="rate"),
        path("attempts/<int:pk>/submit/", calibration.submit, name="submit"),
        path("policy/", calibration.policy, name="policy"),
        path("rubric/", calibration.rubric, name="rubric"),
        path("rubric/v<int:version>/", calibration.rubric_version, name="rubric-version"),
        path("sets/", calibration.set_list, name="sets"),
        path("sets/new/", calibration.set_new, name="set-new"),
    ],
    "calibration",
)

quality_pages = ([path("", quality.quality_page, name="page")], "quality")

agreement_pages = ([path("", agreement.agreement_page, name="page")], "agreement")
