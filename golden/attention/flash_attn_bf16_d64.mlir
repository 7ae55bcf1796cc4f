entry @flash_attn_bf16_d64(%arg0: tile<ptr<bf16>>, %arg1: tile<ptr<bf16>>, %arg2: tile<ptr<bf16>>, %arg3: tile<ptr<bf16>>, %arg4: tile<f32>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %5 = make_tensor_view %4, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xbf16, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>, tile<i32> -> tile<32x64xbf16>, token
  %9 = constant <i32: 0> : tile<i32>
  %10 = constant <i32: 4> : tile<i32>
  %11 = constant <i32: 1> : tile<i32>
  %12 = constant <f32: 0xFF800000> : tile<32x1xf32>
  %13 = constant <f32: 0.000000e+00> : tile<32x1xf32>
  %14 = constant <f32: 0.000000e+00> : tile<32x64xf32>
  %15, %16, %17, %18 = for %19 in (%9 to %10, step %11) : tile<i32> iter_values(%20 = %12, %21 = %13, %22 = %14, %23 = %8) -> (tile<32x1xf32>, tile<32x1xf32>, tile<32x64xf32>, token) {
    %24 = assume div_by<16>, %arg1 : tile<ptr<bf16>>
    %25 = make_tensor_view %24, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xbf16, strides=[64,1]>
    %26 = make_partition_view %25 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>
    %27, %28 = load_view_tko weak %26[%19, %2] token = %23 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>, tile<i32> -> tile<32x64xbf16>, token
    %29 = assume div_by<16>, %arg2 : tile<ptr<bf16>>
    %30 = make_tensor_view %29, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xbf16, strides=[64,1]>
    %31 = make_partition_view %30 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>
    %32, %33 = load_view_tko weak %31[%19, %2] token = %28 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>, tile<i32> -> tile<32x64xbf16>, token
    %34 = permute %27 [1, 0] : tile<32x64xbf16> -> tile<64x32xbf16>
    %35 = constant <f32: 0.000000e+00> : tile<32x32xf32>
    %36 = mmaf %7, %34, %35 : tile<32x64xbf16>, tile<64x32xbf16>, tile<32x32xf32>
    %37 = reshape %arg4 : tile<f32> -> tile<1x1xf32>
    %38 = broadcast %37 : tile<1x1xf32> -> tile<32x32xf32>
    %39 = mulf %36, %38  : tile<32x32xf32>
    %40 = reduce %39 dim=1 identities=[0xFF800000 : f32] : tile<32x32xf32> -> tile<32xf32> 
    (%41: tile<f32>, %42: tile<f32>) {
      %43 = maxf %41, %42 : tile<f32>
      yield %43 : tile<f32>
    }
    %44 = reshape %40 : tile<32xf32> -> tile<32x1xf32>
    %45 = maxf %20, %44 : tile<32x1xf32>
    %46 = subf %20, %45  : tile<32x1xf32>
    %47 = exp %46  : tile<32x1xf32>
    %48 = mulf %21, %47  : tile<32x1xf32>
    %49 = broadcast %45 : tile<32x1xf32> -> tile<32x32xf32>
    %50 = subf %39, %49  : tile<32x32xf32>
    %51 = exp %50  : tile<32x32xf32>
    %52 = reduce %51 dim=1 identities=[0.000000e+00 : f32] : tile<32x32xf32> -> tile<32xf32> 
    (%53: tile<f32>, %54: tile<f32>) {
      %55 = addf %53, %54  : tile<f32>
      yield %55 : tile<f32>
    }
    %56 = reshape %52 : tile<32xf32> -> tile<32x1xf32>
    %57 = addf %48, %56  : tile<32x1xf32>
    %58 = ftof %51  : tile<32x32xf32> -> tile<32x32xbf16>
    %59 = broadcast %47 : tile<32x1xf32> -> tile<32x64xf32>
    %60 = mulf %22, %59  : tile<32x64xf32>
    %61 = mmaf %58, %32, %60 : tile<32x32xbf16>, tile<32x64xbf16>, tile<32x64xf32>
    continue %45, %57, %61, %33 : tile<32x1xf32>, tile<32x1xf32>, tile<32x64xf32>, token
  }
  %62 = broadcast %16 : tile<32x1xf32> -> tile<32x64xf32>
  %63 = divf %17, %62  : tile<32x64xf32>
  %64 = ftof %63  : tile<32x64xf32> -> tile<32x64xbf16>
  %65 = assume div_by<16>, %arg3 : tile<ptr<bf16>>
  %66 = make_tensor_view %65, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xbf16, strides=[64,1]>
  %67 = make_partition_view %66 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>
  %68 = store_view_tko weak %64, %67[%1, %2] token = %18 : tile<32x64xbf16>, partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xbf16, strides=[64,1]>>, tile<i32> -> token
  return
}
