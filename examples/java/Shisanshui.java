// A Java client of handeval.v2.Handeval: one game of 十三水 (deal 4 x 13 cards from a
// seeded shuffle -> Arrange each hand -> Settle -> each seat's money, checked zero-sum).
// Built from Debian's packages (libgrpc-java, protobuf-compiler-grpc-java-plugin): see
// ../go/README.md and scripts/go_examples.sh.
//
//   java -cp ... Shisanshui HOST:PORT [SEED]
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.handeval.v2.*;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

public final class Shisanshui {
    public static void main(String[] args) throws Exception {
        ManagedChannel channel = ManagedChannelBuilder.forTarget(args[0]).usePlaintext().build();
        try {
            System.exit(play(HandevalGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS),
                             args.length > 1 ? Long.parseLong(args[1]) : 1L));
        } finally {
            channel.shutdownNow();
        }
    }

    static int play(HandevalGrpc.HandevalBlockingStub stub, long seed) {
        List<String> deck = new ArrayList<>();
        for (char r : "23456789TJQKA".toCharArray())
            for (char s : "shdc".toCharArray()) deck.add("" + r + s);
        Collections.shuffle(deck, new Random(seed));
        ShisanshuiArrangeRequest.Builder arrange = ShisanshuiArrangeRequest.newBuilder();
        List<Cards> hands = new ArrayList<>();
        for (int seat = 0; seat < 4; seat++) {
            Cards hand = Cards.newBuilder().addAllCards(deck.subList(13 * seat, 13 * seat + 13)).build();
            hands.add(hand);
            arrange.addItems(ShisanshuiArrangeItem.newBuilder().setHand(hand));
        }
        ArrangeResponse ar = stub.arrange(ArrangeRequest.newBuilder().setShisanshui(arrange).build());
        ShisanshuiDeal.Builder deal = ShisanshuiDeal.newBuilder();
        for (int seat = 0; seat < 4; seat++) {
            ShisanshuiArrangeResult r = ar.getShisanshui().getResults(seat);
            if (r.hasError()) return fail("arrange: " + r.getError());
            ShisanshuiArrangeAnswer a = r.getAnswer();
            System.out.println("seat " + seat + ": " + String.join(" ", hands.get(seat).getCardsList()));
            if (a.getDeclareSpecial()) {
                System.out.println("  declares " + a.getSpecial());
                deal.addPlayers(ShisanshuiPlayer.newBuilder().setSpecial(
                    ShisanshuiDeclaredSpecial.newBuilder().setKind(a.getSpecial()).setCards(hands.get(seat))));
            } else {
                ShisanshuiArrangement b = a.getBest().getArrangement();
                System.out.println("  front " + String.join(" ", b.getFront().getCardsList())
                    + " | middle " + String.join(" ", b.getMiddle().getCardsList())
                    + " | back " + String.join(" ", b.getBack().getCardsList()));
                deal.addPlayers(ShisanshuiPlayer.newBuilder().setArrangement(b));
            }
        }
        SettleResponse sr = stub.settle(SettleRequest.newBuilder().setShisanshui(
            ShisanshuiSettleRequest.newBuilder().addDeals(deal)).build());
        ShisanshuiSettleResult res = sr.getShisanshui().getResults(0);
        if (res.hasError()) return fail("settle: " + res.getError());
        List<Long> deltas = res.getSettlement().getDeltasList();
        long sum = 0;
        for (int seat = 0; seat < deltas.size(); seat++) {
            System.out.printf("  seat %d: %+d%n", seat, deltas.get(seat));
            sum += deltas.get(seat);
        }
        if (deltas.size() != 4 || sum != 0) return fail("deltas " + deltas + " are not 4 adding up to 0");
        System.out.println("  zero-sum: ok");
        return 0;
    }

    static int fail(String message) {
        System.err.println("Shisanshui: " + message);
        return 1;
    }
}
