// Times the reference fan calculator (ChineseOfficialMahjongHelper's, as shipped in the
// PyPI package pymahjonggb) on a corpus of dupmj hand lines, for tools/bench_reference.sh.
// Prints hands per second (median of the runs, and the best run) and the sum of the points,
// which dupmj's
// `bench fans --rules reference` prints too: equal sums say both scored the same hands.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "fan_calculator.h"
#include "stringify.h"

using namespace mahjong;

static wind_t wind_of(const std::string &w) {
    switch (w.empty() ? 'E' : w[0]) {
        case 'S': return wind_t::SOUTH;
        case 'W': return wind_t::WEST;
        case 'N': return wind_t::NORTH;
        default: return wind_t::EAST;
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        std::cerr << "usage: fan_bench CORPUS [RUNS]\n";
        return 2;
    }
    int runs = argc > 2 ? std::atoi(argv[2]) : 5;
    std::ifstream in(argv[1]);
    std::vector<calculate_param_t> hands;
    std::string line;
    size_t line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        size_t bar = line.find('|');
        std::string tiles = line.substr(0, bar);
        while (!tiles.empty() && tiles.back() == ' ') tiles.pop_back();
        calculate_param_t p{};
        if (string_to_tiles(tiles.c_str(), tiles.size(), &p.hand_tiles, &p.win_tile) != PARSE_NO_ERROR) {
            std::cerr << "line " << line_no << ": the reference cannot read '" << tiles << "'\n";
            return 1;
        }
        p.win_flag = WIN_FLAG_DISCARD;
        p.prevalent_wind = wind_t::EAST;
        p.seat_wind = wind_t::EAST;
        std::istringstream flags(bar == std::string::npos ? "" : line.substr(bar + 1));
        std::string f;
        while (flags >> f) {
            if (f == "self") p.win_flag |= WIN_FLAG_SELF_DRAWN;
            else if (f == "fourth") p.win_flag |= WIN_FLAG_LAST_TILE;
            else if (f == "kong") p.win_flag |= WIN_FLAG_KONG_INVOLVED;
            else if (f == "last") p.win_flag |= WIN_FLAG_WALL_LAST;
            else if (f.rfind("seat=", 0) == 0) p.seat_wind = wind_of(f.substr(5));
            else if (f.rfind("wind=", 0) == 0) p.prevalent_wind = wind_of(f.substr(5));
            else if (f.rfind("flowers=", 0) == 0) p.flower_count = (uint8_t)std::atoi(f.c_str() + 8);
        }
        hands.push_back(p);
    }
    std::vector<double> rates;
    long long sum = 0;
    for (int r = 0; r < runs; ++r) {
        sum = 0;
        auto start = std::chrono::steady_clock::now();
        for (const auto &p : hands) {
            fan_table_t table = {};
            int points = calculate_fan(&p, &table);
            // Errors (not a winning hand, too few points) are negative codes: count 0.
            if (points > 0) sum += points;
        }
        std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        rates.push_back(hands.size() / took.count());
    }
    std::sort(rates.begin(), rates.end());
    std::printf("%.0f hands/s (best %.0f), %zu hands, points %lld\n", rates[rates.size() / 2],
                rates.back(), hands.size(), sum);
    return 0;
}
