package dev.idgen.random;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * An AES-256-CTR keystream: the bytes AES gives for counter blocks IV, IV+1, IV+2, ... under a
 * secret key, as in NIST SP 800-90A's CTR_DRBG. The JDK's AES uses the AES-NI instructions where the
 * processor has them.
 *
 * <p><b>Invariant.</b> No (key, counter) pair is used twice, and every key is used for at most
 * {@link #REFILLS_PER_KEY} refills, then replaced ("fast key erasure"): the next 48 bytes of the
 * stream, which are never handed out, become the new key and IV. Whoever later reads this object's
 * state can compute the output since the last replacement (at most 64 KiB, much of it still unread
 * in the buffer) but nothing before it. The first key and IV come from a {@link SecureRandom}.
 * Used by one thread at a time (the holder of its stripe).
 */
final class AesCtrKeystream implements StripedRandom.Refill {

    static final int KEY_BYTES = 32;
    static final int IV_BYTES = 16;
    static final int REFILLS_PER_KEY = 16;

    private static final String TRANSFORMATION = "AES/CTR/NoPadding";
    private static final byte[] ZEROS = new byte[StripedRandom.BUFFER_BYTES];

    private final SecureRandom seeder;
    private final byte[] firstKey;
    private final byte[] firstIv;
    private Cipher cipher;
    private int refillsLeft;

    /** Keyed from {@code seeder} on the first refill. */
    AesCtrKeystream(SecureRandom seeder) {
        this.seeder = seeder;
        this.firstKey = null;
        this.firstIv = null;
    }

    /** Keyed with the given key and IV, for the known-answer test. */
    AesCtrKeystream(byte[] key, byte[] iv) {
        this.seeder = null;
        this.firstKey = key.clone();
        this.firstIv = iv.clone();
    }

    @Override
    public void fill(byte[] buffer) {
        if (buffer.length > ZEROS.length) {
            throw new IllegalArgumentException("buffer of " + buffer.length + " bytes; at most " + ZEROS.length);
        }
        try {
            if (cipher == null) {
                cipher = Cipher.getInstance(TRANSFORMATION);
                byte[] keyAndIv = new byte[KEY_BYTES + IV_BYTES];
                if (seeder != null) {
                    seeder.nextBytes(keyAndIv);
                } else {
                    System.arraycopy(firstKey, 0, keyAndIv, 0, KEY_BYTES);
                    System.arraycopy(firstIv, 0, keyAndIv, KEY_BYTES, IV_BYTES);
                }
                rekey(keyAndIv);
            } else if (refillsLeft == 0) {
                byte[] keyAndIv = new byte[KEY_BYTES + IV_BYTES];
                encryptZeros(keyAndIv);
                rekey(keyAndIv);
            }
            encryptZeros(buffer);
            refillsLeft--;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK's " + TRANSFORMATION + " cipher failed", e);
        }
    }

    private void encryptZeros(byte[] out) throws GeneralSecurityException {
        int written = cipher.update(ZEROS, 0, out.length, out, 0);
        if (written != out.length) {
            throw new GeneralSecurityException(TRANSFORMATION + " gave " + written + " of " + out.length + " bytes");
        }
    }

    private void rekey(byte[] keyAndIv) throws GeneralSecurityException {
        try {
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(keyAndIv, 0, KEY_BYTES, "AES"),
                    new IvParameterSpec(keyAndIv, KEY_BYTES, IV_BYTES));
            refillsLeft = REFILLS_PER_KEY;
        } finally {
            Arrays.fill(keyAndIv, (byte) 0);
        }
    }
}
